"""``python -m rookcore.analysis``: compile (or load from numba's cache) the double-dummy core ahead of first use.

Run by ``binder/postBuild`` and the README's app command, so that the first Analyze or strong-AI endgame does not
wait ~15 s for the compiler.
"""
from .dd import warm_up

print(f"double-dummy core ready in {warm_up():.1f} s")
