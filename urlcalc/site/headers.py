"""The headers every response of the page carries, served (urlcalc.serving.app) or exported
(urlcalc.site.export): the Content-Security-Policy, the other security headers, and the MIME type
of each kind of file the page is made of.
"""

from __future__ import annotations

# Content-Security-Policy for every response (the page, the worker script, the API). A dedicated
# worker loaded from our origin runs under the policy of its own script's response, so this one
# governs Pyodide too. Tested in Debian Chromium 156 with the module worker booting Pyodide
# 314.0.7 and answering: no violation, no console message. The one relaxation over "scripts from
# 'self' only":
#   'wasm-unsafe-eval'  lets WebAssembly.instantiateStreaming compile pyodide.asm.wasm (without it:
#                       "CompileError: ... violates the following Content Security policy
#                       directive"). It allows no JS eval(): Pyodide 314's glue does not need
#                       'unsafe-eval' (its eval() calls serve EM_ASM in dynamically loaded .so
#                       files and emscripten_run_script, neither of which urlcalc uses).
# img-src also allows data: for the page's `<link rel="icon" href="data:,">`.
# No 'unsafe-inline' anywhere: no inline script or event-handler attribute, no style attribute
# or <style> element (set styles through classes or element.style), no javascript: URLs.
CSP = "; ".join(
    (
        "default-src 'self'",
        "script-src 'self' 'wasm-unsafe-eval'",
        "worker-src 'self'",
        "connect-src 'self'",
        "style-src 'self'",
        "img-src 'self' data:",
        "font-src 'self'",
        "object-src 'none'",
        "base-uri 'none'",
        "frame-ancestors 'none'",
        "form-action 'none'",
    )
)
# Cross-origin isolation (COOP same-origin + COEP require-corp): the page may then use a
# SharedArrayBuffer, which lets a keystroke's call wait for Pyodide's answer in the keystroke's
# own task (web/js/engine/sync-channel.js), so that the answer is painted in the keystroke's frame.
# The page loads nothing from another origin, so require-corp blocks nothing.
ISOLATION_HEADERS = {
    "Cross-Origin-Opener-Policy": "same-origin",
    "Cross-Origin-Embedder-Policy": "require-corp",
}
SECURITY_HEADERS = {
    "Content-Security-Policy": CSP,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    **ISOLATION_HEADERS,
}

# Registered here, never guessed from /etc/mime.types (slim images lack it; a wasm served as
# application/octet-stream makes loadPyodide hang, an .mjs as text/plain kills the worker).
MIME_TYPES = {
    ".html": "text/html; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".mjs": "text/javascript; charset=utf-8",
    ".json": "application/json",
    ".map": "application/json",
    ".wasm": "application/wasm",
    ".zip": "application/zip",
    ".txt": "text/plain; charset=utf-8",
    ".svg": "image/svg+xml",
    ".png": "image/png",
    ".jpg": "image/jpeg",
    ".jpeg": "image/jpeg",
    ".gif": "image/gif",
    ".webp": "image/webp",
    ".ico": "image/x-icon",
    ".woff2": "font/woff2",
}
