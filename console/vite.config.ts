import react from '@vitejs/plugin-react';
import { defineConfig, loadEnv } from 'vite';

// The console is served by the API at /admin (built into console/dist). In development Vite
// serves it at the same path and forwards the API's routes, so the browser sees one origin just
// as it does in production: no CORS, and the same relative URLs.
export default defineConfig(({ mode }) => {
  // PASAL_API_URL: where `npm run dev -w @pasal/console` finds the API (its PORT defaults to 3000).
  const api = loadEnv(mode, '.', 'PASAL_').PASAL_API_URL ?? 'http://127.0.0.1:3000';
  return {
    base: '/admin/',
    plugins: [react()],
    server: {
      port: 5173,
      proxy: {
        '/api': { target: api, changeOrigin: true },
        '/files': { target: api, changeOrigin: true },
        // Socket.IO's transport path; the realtime namespace (/realtime) travels inside it.
        '/socket.io': { target: api, changeOrigin: true, ws: true },
      },
    },
    build: {
      outDir: 'dist',
      emptyOutDir: true,
      // Hashed names (Vite's default) let the API cache assets for a year and index.html never.
      assetsDir: 'assets',
      chunkSizeWarningLimit: 600,
      rolldownOptions: {
        output: {
          // Libraries the first screen loads whole go in long-lived chunks of their own, so a
          // release that changes only screens keeps them in the browser's cache. Component and
          // chart libraries (Mantine, recharts) are left to the automatic splitting: a group would
          // pull every component any lazy screen uses into the chunk the sign-in screen loads.
          codeSplitting: {
            groups: [
              { name: 'react', test: /node_modules[\\/](react|react-dom|scheduler)[\\/]/, priority: 30 },
              {
                name: 'data',
                test: /node_modules[\\/](@tanstack|i18next|react-i18next|openapi-fetch)[\\/]/,
                priority: 20,
              },
            ],
          },
        },
      },
    },
  };
});
