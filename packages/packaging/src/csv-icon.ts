import { parseDocument } from 'yaml';

/**
 * Sets the CSV's `spec.icon` (what OperatorHub shows) to `svg`, base64-encoded as OLM wants it. The
 * drawing is bundle/icon.svg; `sync-bundle` embeds it, so edit the SVG and re-run.
 */
export function withIcon(csvText: string, svg: string): string {
  const csv = parseDocument(csvText);
  if (csv.errors.length > 0) throw new Error(`CSV: ${csv.errors[0]?.message}`);
  const base64data = Buffer.from(svg, 'utf8').toString('base64');
  csv.setIn(['spec', 'icon'], csv.createNode([{ base64data, mediatype: 'image/svg+xml' }]));
  return csv.toString({ lineWidth: 0, flowCollectionPadding: false, singleQuote: true });
}
