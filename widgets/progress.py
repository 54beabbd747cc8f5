"""Progress of a long double-dummy analysis running in a background thread: moved to the engine as
`rookcore.analysis_progress` (Replay's session runs its analysis there; it has no UI import).

This name stays for the Play panel's review until Play becomes a session too: ``widgets.progress`` IS that module
(one module object, so a setting changed on either, e.g. ``PROGRESS_EVERY`` in a test, holds for both).
"""
import sys

from rookcore import analysis_progress

sys.modules[__name__] = analysis_progress
