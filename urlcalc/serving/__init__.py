"""Serving: the Flask app with the JSON API (``app``), the HTTP server under it (``http_server``),
the API over a WebSocket (``socket_api``), the pool that computes heavy requests away from the
serving threads (``work_pool``) and the OpenAPI description (``openapi``). The top of the
package's layers but the front ends (``cli``, ``notebook``); Pyodide's bundle holds every layer
but this one.
"""
