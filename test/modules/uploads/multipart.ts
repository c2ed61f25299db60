// Real multipart bodies for app.inject, built by the platform's own FormData encoder.
export interface Part {
  field: string;
  name: string;
  data: Buffer | string;
  /** The client's claimed type; the server must not trust it. */
  type?: string;
}

export async function multipartBody(parts: Part[], fields: Record<string, string> = {}) {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  for (const p of parts) {
    const data = typeof p.data === 'string' ? Buffer.from(p.data) : p.data;
    form.append(
      p.field,
      new Blob([new Uint8Array(data)], { type: p.type ?? 'application/octet-stream' }),
      p.name,
    );
  }
  const request = new Request('http://localhost/', { method: 'POST', body: form });
  return {
    payload: Buffer.from(await request.arrayBuffer()),
    headers: { 'content-type': request.headers.get('content-type')! },
  };
}

export const filePart = (data: Buffer | string, name = 'note.txt', type?: string): Part => ({
  field: 'file',
  name,
  data,
  type,
});
