// Where the end-to-end tests' server listens, shared by the config and the global set-up.
export const e2ePort = () => Number(process.env.E2E_PORT ?? 3917);
export const e2eBaseUrl = () => `http://127.0.0.1:${e2ePort()}`;
