"""CrowsNest Rook on an existing JupyterHub: the lines to add to the hub's own ``jupyterhub_config.py``.

Each signed-in user gets a Jupyter server of their own (JupyterHub's single-user server) in which the app runs as
Voila's Jupyter-server extension, at ``/user/<name>/voila/render/app.ipynb``: the page the user lands on after
signing in. The user is the learner: their game and lesson progress are kept in their own home folder
(``~/.crowsnest-rook/``), whatever browser they sign in from (`rookcore.learners.hub_user`).

The users' environment must have the project installed, with ``jupyterhub`` (``pip install -e '.[hub]'``), and the
double-dummy core compiled (``python -m rookcore.analysis``): the container image of ``deploy/Dockerfile`` has all
of it, in ``/opt/crowsnest-rook``. Without containers (a spawner that starts local processes: the default
``LocalProcessSpawner``, SystemdSpawner, The Littlest JupyterHub), install a checkout in the users' environment and
set ``$ROOK_INSTALL_DIR`` (below) to it.

tests/test_jupyterhub.py runs a real JupyterHub with this file (its own authenticator, spawner and ports added).
README.md, "Deployment", explains each setting.
"""
import os
import sys

c = get_config()  # noqa: F821 - JupyterHub's configuration loader provides get_config

# Where the project is installed in the users' environment: the image's copy, or a checkout pip-installed there.
ROOK = os.environ.get("ROOK_INSTALL_DIR", "/opt/crowsnest-rook")

# 1. The app is the user's default URL: signing in opens it. (`/lab` still opens JupyterLab for those allowed.)
c.Spawner.default_url = "/voila/render/app.ipynb"

# 2. The notebooks are where the user's server looks: its root folder is the project's notebooks/ (read-only for
#    the users in the image), so /voila/render/app.ipynb and the lessons /voila/render/tutorial/NN-….ipynb exist.
c.Spawner.notebook_dir = f"{ROOK}/notebooks"

# 3. The app's Voila settings also in the user's server (Voila's kernel pool is not used there): the app's template
#    "rook", the idle cull of a page's kernel (5 minutes) and the app's kernel manager (rookserver.kernels: at most
#    10 pages a browser and as many as the server's memory holds, a kernel shut down 2 minutes after its page has
#    gone even while it computes), as voila.json sets them for the README's standalone server.
#    deploy/jupyter/jupyter_server_config.json holds them (the image also has it in /etc/jupyter).
c.Spawner.environment.update({"JUPYTER_CONFIG_PATH": f"{ROOK}/deploy/jupyter"})  # added to your own, if any
#    The compiled double-dummy core is in $NUMBA_CACHE_DIR, which the image sets (a folder outside the home).
#    Without containers (local processes), set it to the folder where you compiled it (README.md, "Deployment"):
#        c.Spawner.environment.update({"NUMBA_CACHE_DIR": f"{ROOK}/.numba-cache"})
#    Records a user saves go to their own folder in their home. The teacher's records for the class (opened by
#    ?record=class/<name>.json links, never written by the app) are in {ROOK}/notebooks/class, or elsewhere with
#        c.Spawner.environment.update({"ROOK_CLASS_DIR": "/srv/rook-class"})   # a folder the users may only read

# 4. Stop a user's server after an hour without activity (jupyterhub-idle-culler, a hub service; pip install
#    jupyterhub-idle-culler in the hub's environment). Their game is kept: the next sign-in resumes it.
c.JupyterHub.services = [{
    "name": "jupyterhub-idle-culler",
    "command": [sys.executable, "-m", "jupyterhub_idle_culler", "--timeout=3600", "--cull-every=600"],
}]
c.JupyterHub.load_roles = [{
    "name": "jupyterhub-idle-culler",
    "scopes": ["list:users", "read:users:activity", "read:servers", "delete:servers"],
    "services": ["jupyterhub-idle-culler"],
}]

# 5. The users' servers: your hub's own spawner and authenticator stay as they are. With containers, the image of
#    deploy/Dockerfile, e.g. DockerSpawner (pip install dockerspawner):
#
#        c.JupyterHub.spawner_class = "docker"
#        c.DockerSpawner.image = "crowsnest-rook:0.1.0"
#        c.DockerSpawner.volumes = {"rook-home-{username}": "/home/rook"}   # each user's home, kept
#
#    (On Kubernetes, Zero to JupyterHub: deploy/z2jh-values.yaml instead of this file.)
