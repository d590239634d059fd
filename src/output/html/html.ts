// The HTML report as one self-contained file (CSS, gzipped data, the viewer), so it opens offline. Browser-safe.
import { escapeMarkup as escapeHtml } from "../escape.js";
import type { ReportData } from "./data.js";
import { REPORT_VIEWER_JS, REPORT_VIEWER_CSS } from "./viewer.generated.js";

async function gzipStream(bytes: Uint8Array): Promise<Uint8Array> {
  const stream = new Blob([bytes as Uint8Array<ArrayBuffer>])
    .stream()
    .pipeThrough(new CompressionStream("gzip") as unknown as TransformStream<Uint8Array, Uint8Array>);
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

/** In pieces: String.fromCharCode takes so many arguments at most. */
function base64(bytes: Uint8Array): string {
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

/** The report's HTML. `gzip`: another compressor (the CLI's zlib is faster). */
export async function reportHtml(
  data: ReportData,
  gzip: (bytes: Uint8Array) => Uint8Array | Promise<Uint8Array> = gzipStream,
): Promise<string> {
  const packed = base64(await gzip(new TextEncoder().encode(JSON.stringify(data))));
  // A "</script" would end the element.
  const script = REPORT_VIEWER_JS.replace(/<\/(script)/gi, "<\\/$1");
  const names = data.qrelsCompare
    ? `${data.qrelsCompare.runs.join(", ")} under ${data.qrelsCompare.a} and ${data.qrelsCompare.b}`
    : data.runs.map((r) => r.name).join(", ");
  const title = `rankeval report: ${names}`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="${escapeHtml(data.source)}">
<title>${escapeHtml(title)}</title>
<style>${REPORT_VIEWER_CSS}</style>
</head>
<body data-state="loading">
<h1>rankeval report</h1>
<p class="lead">${escapeHtml(names)}. Made by ${escapeHtml(data.source)}. Everything is in this file: it opens offline.</p>
<noscript><p class="error">This report draws its tables and charts with a script in this file: allow scripts to see them.</p></noscript>
<main id="report"></main>
<script type="application/octet-stream" id="report-data" data-encoding="gzip+base64">${packed}</script>
<script>${script}</script>
</body>
</html>
`;
}
