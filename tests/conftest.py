from __future__ import annotations

import sys
from pathlib import Path

# tests/conformance.py is shared with the Pyodide harness; make it importable as a module.
sys.path.insert(0, str(Path(__file__).parent))
