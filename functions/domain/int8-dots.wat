;; Dot products of one query with many rows of int8 components, for the
;; retrieval index's dense pass (functions/domain/int8-dots.ts). The query is
;; int16, the rows int8; each product is exact in int32 (see QUERY_MAX there).
;; Sixteen components a step in WebAssembly SIMD: the row's bytes widened to
;; two i16x8 halves, each multiplied with eight of the query's components and
;; summed pairwise into four i32 lanes (i32x4.dot_i16x8_s).
;;
;; Compiled by `npm run wasm` into int8-dots-wasm.ts; a unit test compiles it
;; again and compares.
(module
  (import "env" "memory" (memory 1))
  ;; For each of `count` rows of `dims` bytes from `rows` (dims a multiple of
  ;; 16): its dot product with the `dims` int16 components at `query`, stored
  ;; as an i32 at `out` + 4 × row.
  (func (export "dots") (param $rows i32) (param $count i32) (param $dims i32) (param $query i32) (param $out i32)
    (local $row i32)
    (local $d i32)
    (local $at i32)
    (local $acc v128)
    (local $v v128)
    (block $done
      (loop $rows_loop
        (br_if $done (i32.ge_u (local.get $row) (local.get $count)))
        (local.set $acc (v128.const i32x4 0 0 0 0))
        (local.set $d (i32.const 0))
        (local.set $at (i32.add (local.get $rows) (i32.mul (local.get $row) (local.get $dims))))
        (block $row_done
          (loop $dims_loop
            (br_if $row_done (i32.ge_u (local.get $d) (local.get $dims)))
            (local.set $v (v128.load align=1 (i32.add (local.get $at) (local.get $d))))
            (local.set $acc
              (i32x4.add (local.get $acc)
                (i32x4.dot_i16x8_s
                  (i16x8.extend_low_i8x16_s (local.get $v))
                  (v128.load align=2 (i32.add (local.get $query) (i32.shl (local.get $d) (i32.const 1)))))))
            (local.set $acc
              (i32x4.add (local.get $acc)
                (i32x4.dot_i16x8_s
                  (i16x8.extend_high_i8x16_s (local.get $v))
                  (v128.load offset=16 align=2 (i32.add (local.get $query) (i32.shl (local.get $d) (i32.const 1)))))))
            (local.set $d (i32.add (local.get $d) (i32.const 16)))
            (br $dims_loop)))
        (i32.store
          (i32.add (local.get $out) (i32.shl (local.get $row) (i32.const 2)))
          (i32.add
            (i32.add (i32x4.extract_lane 0 (local.get $acc)) (i32x4.extract_lane 1 (local.get $acc)))
            (i32.add (i32x4.extract_lane 2 (local.get $acc)) (i32x4.extract_lane 3 (local.get $acc)))))
        (local.set $row (i32.add (local.get $row) (i32.const 1)))
        (br $rows_loop)))))
