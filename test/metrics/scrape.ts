// Reading the Prometheus text format in tests: one sample's value by name and exact labels.

/** The value of the sample `name{labels}` (labels in any order, all of them), or undefined. */
export function metricValue(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  const wanted = Object.entries(labels)
    .map(([k, v]) => `${k}="${v}"`)
    .sort();
  for (const line of text.split('\n')) {
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const have = (match[2] ? match[2].split(/,(?=[a-zA-Z_]\w*=")/) : []).sort();
    if (have.length === wanted.length && have.every((l, i) => l === wanted[i])) return Number(match[3]);
  }
  return undefined;
}
