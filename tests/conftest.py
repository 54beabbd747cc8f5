"""Session-wide test settings: the learner's progress (widgets.lessons.PROGRESS, also written by the notebooks'
and the Voila pages' kernels, which inherit this environment) goes to a fresh temporary file, never to the
user's ~/.crowsnest-rook/progress.json."""
import os
import tempfile

os.environ["ROOK_PROGRESS_FILE"] = os.path.join(tempfile.mkdtemp(prefix="rook-progress-"), "progress.json")

# The game in play (rookcore.saved) is kept nowhere unless a test asks: the Voila server and notebooks inherit this,
# so every page load starts a new game as the tests expect.
os.environ["ROOK_GAME_FILE"] = ""
