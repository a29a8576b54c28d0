// Written by `npm run wasm` from int8-dots.wat: do not edit.
/** The int8 dot-product kernel (int8-dots.wat), compiled, in base64. */
export const INT8_DOTS_WASM = 'AGFzbQEAAAABCQFgBX9/f39/AAIPAQNlbnYGbWVtb3J5AgABAwIBAAcIAQRkb3RzAAAKugEBtwECA38CewJAA0AgBSABTw0B/QwAAAAAAAAAAAAAAAAAAAAAIQhBACEGIAAgBSACbGohBwJAA0AgBiACTw0BIAcgBmr9AAAAIQkgCCAJ/YcBIAMgBkEBdGr9AAEA/boB/a4BIQggCCAJ/YgBIAMgBkEBdGr9AAEQ/boB/a4BIQggBkEQaiEGDAALCyAEIAVBAnRqIAj9GwAgCP0bAWogCP0bAiAI/RsDamo2AgAgBUEBaiEFDAALCws=';
