/// <reference types="vitest/config" />
// The client is built into the Python package (paiju/web/dist), which the server serves under
// /static; `make client` runs this build when the sources change (scripts/client_bundle.py).
import { defineConfig } from "vite";

export default defineConfig({
  base: "/static/",
  oxc: { jsx: { runtime: "automatic", importSource: "preact" } },
  resolve: {
    alias: { react: "preact/compat", "react-dom": "preact/compat" },
  },
  build: {
    outDir: "../paiju/web/dist",
    emptyOutDir: true,
    assetsDir: "assets",
    sourcemap: false,
    target: "es2022",
    reportCompressedSize: false,
  },
  test: {
    environment: "happy-dom",
    include: ["test/**/*.test.{ts,tsx}"],
    setupFiles: ["test/setup.ts"],
  },
});
