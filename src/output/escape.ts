// Text put into HTML or XML (the report's page, the gate's JUnit): & < > " as entities. Browser-safe.

export const escapeMarkup = (s: string) =>
  s.replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]!);
