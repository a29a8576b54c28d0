/**
 * Small, dependency-free SVG charts for the evaluation report: a line chart
 * (recall against budget, the learning curve) and a grouped bar chart
 * (tokens per question). Plain SVG 1.1 that renders on GitHub and in any
 * browser.
 */

export interface Series {
  readonly name: string;
  readonly points: readonly (readonly [x: number, y: number])[];
}

interface ChartOptions {
  readonly title: string;
  readonly xLabel: string;
  readonly yLabel: string;
  /** @default computed from the data */
  readonly yMax?: number;
  /** Category axis: x values are placed evenly, labelled as given. */
  readonly categorical?: boolean;
}

const WIDTH = 700;
const HEIGHT = 360;
const MARGIN = { left: 64, right: 200, top: 40, bottom: 52 };
const COLOURS = ['#1f77b4', '#d62728', '#2ca02c', '#9467bd', '#ff7f0e', '#8c564b'];

const escape = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const fmt = (value: number) => (Math.abs(value) >= 100 ? String(Math.round(value)) : String(Math.round(value * 100) / 100));

function niceMax(value: number): number {
  if (value <= 0) return 1;
  const magnitude = 10 ** Math.floor(Math.log10(value));
  const step = [1, 2, 2.5, 5, 10].find((s) => s * magnitude >= value)!;
  return step * magnitude;
}

function frame(options: ChartOptions, yMax: number, xTicks: readonly { at: number; label: string }[], body: string[], legend: readonly string[]): string {
  const plotW = WIDTH - MARGIN.left - MARGIN.right;
  const plotH = HEIGHT - MARGIN.top - MARGIN.bottom;
  const y = (value: number) => MARGIN.top + plotH - (value / yMax) * plotH;
  const parts = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${HEIGHT}" viewBox="0 0 ${WIDTH} ${HEIGHT}" font-family="sans-serif" font-size="12">`,
    `<rect width="${WIDTH}" height="${HEIGHT}" fill="white"/>`,
    `<text x="${WIDTH / 2 - MARGIN.right / 2}" y="22" text-anchor="middle" font-size="14">${escape(options.title)}</text>`,
  ];
  for (let k = 0; k <= 5; k += 1) {
    const value = (yMax * k) / 5;
    parts.push(`<line x1="${MARGIN.left}" x2="${MARGIN.left + plotW}" y1="${y(value)}" y2="${y(value)}" stroke="#e5e5e5"/>`);
    parts.push(`<text x="${MARGIN.left - 6}" y="${y(value) + 4}" text-anchor="end">${fmt(value)}</text>`);
  }
  for (const tick of xTicks) parts.push(`<text x="${tick.at}" y="${MARGIN.top + plotH + 18}" text-anchor="middle">${escape(tick.label)}</text>`);
  parts.push(`<line x1="${MARGIN.left}" x2="${MARGIN.left + plotW}" y1="${MARGIN.top + plotH}" y2="${MARGIN.top + plotH}" stroke="#333"/>`);
  parts.push(`<line x1="${MARGIN.left}" x2="${MARGIN.left}" y1="${MARGIN.top}" y2="${MARGIN.top + plotH}" stroke="#333"/>`);
  parts.push(`<text x="${MARGIN.left + plotW / 2}" y="${HEIGHT - 12}" text-anchor="middle">${escape(options.xLabel)}</text>`);
  parts.push(`<text transform="translate(16 ${MARGIN.top + plotH / 2}) rotate(-90)" text-anchor="middle">${escape(options.yLabel)}</text>`);
  parts.push(...body);
  legend.forEach((name, i) => {
    const ly = MARGIN.top + 10 + i * 20;
    parts.push(`<rect x="${WIDTH - MARGIN.right + 14}" y="${ly - 9}" width="12" height="12" fill="${COLOURS[i % COLOURS.length]}"/>`);
    parts.push(`<text x="${WIDTH - MARGIN.right + 32}" y="${ly + 1}">${escape(name)}</text>`);
  });
  parts.push('</svg>');
  return `${parts.join('\n')}\n`;
}

export function lineChart(series: readonly Series[], options: ChartOptions): string {
  const plotW = WIDTH - MARGIN.left - MARGIN.right;
  const plotH = HEIGHT - MARGIN.top - MARGIN.bottom;
  const xs = [...new Set(series.flatMap((s) => s.points.map(([x]) => x)))].sort((a, b) => a - b);
  const yMax = options.yMax ?? niceMax(Math.max(0, ...series.flatMap((s) => s.points.map(([, v]) => v))));
  const xMin = xs[0] ?? 0;
  const xMax = xs.at(-1) ?? 1;
  const x = (value: number) =>
    options.categorical
      ? MARGIN.left + ((xs.indexOf(value) + 0.5) / Math.max(1, xs.length)) * plotW
      : MARGIN.left + (xMax === xMin ? plotW / 2 : ((value - xMin) / (xMax - xMin)) * plotW);
  const y = (value: number) => MARGIN.top + plotH - (value / yMax) * plotH;
  const body = series.flatMap((s, i) => {
    const colour = COLOURS[i % COLOURS.length];
    const path = s.points.map(([px, py]) => `${x(px).toFixed(1)},${y(py).toFixed(1)}`).join(' ');
    return [
      `<polyline fill="none" stroke="${colour}" stroke-width="2" points="${path}"/>`,
      ...s.points.map(([px, py]) => `<circle cx="${x(px).toFixed(1)}" cy="${y(py).toFixed(1)}" r="3" fill="${colour}"><title>${escape(s.name)}: ${fmt(py)}</title></circle>`),
    ];
  });
  const ticks = (options.categorical || xs.length <= 8 ? xs : [xMin, xs[Math.floor(xs.length / 2)]!, xMax]).map((value) => ({ at: x(value), label: fmt(value) }));
  return frame(options, yMax, ticks, body, series.map((s) => s.name));
}

/** Bars grouped by category (x), one bar per series. */
export function groupedBarChart(categories: readonly string[], series: readonly { name: string; values: readonly number[] }[], options: ChartOptions): string {
  const plotW = WIDTH - MARGIN.left - MARGIN.right;
  const plotH = HEIGHT - MARGIN.top - MARGIN.bottom;
  const yMax = options.yMax ?? niceMax(Math.max(0, ...series.flatMap((s) => s.values)));
  const group = plotW / Math.max(1, categories.length);
  const bar = (group * 0.8) / Math.max(1, series.length);
  const body = series.flatMap((s, i) =>
    s.values.map((value, c) => {
      const height = (value / yMax) * plotH;
      const bx = MARGIN.left + c * group + group * 0.1 + i * bar;
      return `<rect x="${bx.toFixed(1)}" y="${(MARGIN.top + plotH - height).toFixed(1)}" width="${(bar - 1).toFixed(1)}" height="${height.toFixed(1)}" fill="${COLOURS[i % COLOURS.length]}"><title>${escape(s.name)}, ${escape(categories[c]!)}: ${fmt(value)}</title></rect>`;
    }),
  );
  const ticks = categories.map((label, c) => ({ at: MARGIN.left + (c + 0.5) * group, label }));
  return frame(options, yMax, ticks, body, series.map((s) => s.name));
}
