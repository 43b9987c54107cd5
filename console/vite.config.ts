import { defineConfig } from 'vite';

// Static files that api-gateway serves at /console/ under a strict Content-Security-Policy:
// one module script and one stylesheet, nothing inlined (no inline script or style runs).
export default defineConfig({
  base: '/console/',
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    assetsInlineLimit: 0,
    modulePreload: { polyfill: false },
    sourcemap: false,
    target: 'es2022',
  },
});
