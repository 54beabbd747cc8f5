"""Session-wide test settings: the learner's progress (widgets.lessons.PROGRESS, also written by the notebooks'
and the Voila pages' kernels, which inherit this environment) goes to a fresh temporary file, never to the
user's ~/.crowsnest-rook/progress.json."""
import os
import tempfile

os.environ["ROOK_PROGRESS_FILE"] = os.path.join(tempfile.mkdtemp(prefix="rook-progress-"), "progress.json")
