// Files dropped on a form: `handle` gets them and the file input of the row they fell on, if any.
export function onDrop(
  form: HTMLElement,
  handle: (dropped: File[], target: HTMLInputElement | undefined) => void | Promise<void>,
): void {
  form.addEventListener("dragover", (e) => {
    e.preventDefault();
    form.classList.add("dragging");
  });
  form.addEventListener("dragleave", () => form.classList.remove("dragging"));
  form.addEventListener("drop", async (e) => {
    e.preventDefault();
    form.classList.remove("dragging");
    const dropped = [...(e.dataTransfer?.files ?? [])];
    if (!dropped.length) return;
    const target = (e.target as Element).closest("label")?.querySelector<HTMLInputElement>("input[type=file]");
    await handle(dropped, target ?? undefined);
  });
}
