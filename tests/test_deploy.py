"""What an administrator is given to run the app on JupyterHub (issue 31 item 4): deploy/Dockerfile,
deploy/jupyterhub_config.py, deploy/z2jh-values.yaml, deploy/jupyter/jupyter_server_config.json.

No Docker engine runs on the development machine, so the image is never built here. These tests read the
Dockerfile instead and check that its steps are the ones tests/test_jupyterhub.py runs with a real JupyterHub: a
non-root user, the project installed, the double-dummy core compiled as that user into a cache outside the home
folder, the same server settings (the app as default URL, the notebooks as root, the app's template and kernel
culling), and the same JupyterHub version; and that the Helm values and the hub example say the same. The compile
step itself is run (slow) with the image's numba settings."""
from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
import yaml
from traitlets.config.loader import PyFileConfigLoader

REPO_ROOT = Path(__file__).resolve().parents[1]
DEPLOY = REPO_ROOT / "deploy"
APP_URL = "/voila/render/app.ipynb"


def dockerfile() -> list[tuple[str, str]]:
    """deploy/Dockerfile as (INSTRUCTION, arguments) pairs in order, continuation lines joined, comments left out."""
    lines, current = [], ""
    for raw in (DEPLOY / "Dockerfile").read_text().splitlines():
        if raw.lstrip().startswith("#") or (not raw.strip() and not current):
            continue
        if raw.rstrip().endswith("\\"):
            current += raw.rstrip()[:-1] + " "
            continue
        lines.append(current + raw)
        current = ""
    steps = []
    for line in lines:
        instruction, _, args = line.strip().partition(" ")
        steps.append((instruction.upper(), " ".join(args.split())))
    return steps


def _args() -> dict[str, str]:
    return dict(a.split("=", 1) for kind, a in dockerfile() if kind == "ARG" and "=" in a)


def _expand(text: str) -> str:
    """``text`` with the Dockerfile's ARG defaults and ENV values put in for ``${NAME}``."""
    values = {**_args(), **_env()}
    return re.sub(r"\$\{(\w+)\}", lambda m: values.get(m.group(1), m.group(0)), text)


def _env() -> dict[str, str]:
    env = {}
    for kind, args in dockerfile():
        if kind == "ENV":
            env.update(pair.split("=", 1) for pair in shlex.split(args))
    return env


def _hub_example(env: dict | None = None):
    """deploy/jupyterhub_config.py loaded as JupyterHub loads it (``$ROOK_INSTALL_DIR`` from ``env``)."""
    before = os.environ.get("ROOK_INSTALL_DIR")
    os.environ.pop("ROOK_INSTALL_DIR", None)
    os.environ.update(env or {})
    try:
        return PyFileConfigLoader("jupyterhub_config.py", path=str(DEPLOY)).load_config()
    finally:
        os.environ.pop("ROOK_INSTALL_DIR", None)
        if before is not None:
            os.environ["ROOK_INSTALL_DIR"] = before


def _environment(config) -> dict:
    """The example's ``c.Spawner.environment`` (it adds to the hub's own with ``update``)."""
    value = config.Spawner.environment
    return value.get_value({}) if hasattr(value, "get_value") else value


def _values() -> dict:
    return yaml.safe_load((DEPLOY / "z2jh-values.yaml").read_text())


def _pins(extra: str) -> dict[str, str]:
    project = tomllib.loads((REPO_ROOT / "pyproject.toml").read_text())["project"]
    return dict(p.split("==", 1) for p in project["optional-dependencies"][extra])


# ----- the image ----------------------------------------------------------------------------------------------
def test_the_image_runs_as_a_user_who_is_not_root():
    users = [_expand(a) for kind, a in dockerfile() if kind == "USER"]
    assert users, "no USER instruction: the servers would run as root"
    assert users[-1] not in ("root", "0") and not users[-1].startswith(("root:", "0:")), users
    assert _args()["NB_UID"] != "0"
    useradd = next(a for kind, a in dockerfile() if kind == "RUN" and "useradd" in a)
    assert f"--uid {_args()['NB_UID']}" in _expand(useradd) and useradd.rstrip().endswith("${NB_USER}")


def test_the_core_is_compiled_at_build_as_that_user_outside_the_home():
    steps = dockerfile()
    compile_at = next(i for i, (kind, a) in enumerate(steps) if kind == "RUN" and a == "python -m rookcore.analysis")
    user_at = max(i for i, (kind, _a) in enumerate(steps[:compile_at]) if kind == "USER")
    assert _expand(steps[user_at][1]) == _args()["NB_USER"]  # compiled as the user who will load it
    install_at = next(i for i, (kind, a) in enumerate(steps) if kind == "RUN" and "pip install" in a)
    assert install_at < user_at  # installed as root (read-only for the users), compiled after
    env = _env()
    cache = Path(env["NUMBA_CACHE_DIR"])
    assert Path(env["HOME"]) not in (cache, *cache.parents), "a volume mounted at the home would hide the cache"
    made = _expand(steps[install_at][1])
    assert f"install -d -o {_args()['NB_USER']} -g {_args()['NB_GID']}" in made and str(cache) in made
    assert env["NUMBA_CPU_NAME"] == "generic"  # the cache is used on other processors than the builder's


def test_the_image_installs_the_project_and_the_hub_s_jupyterhub():
    install = next(a for kind, a in dockerfile() if kind == "RUN" and "pip install" in a)
    assert re.search(r"pip install -e \. ", install), install  # as the README's commands (editable checkout)
    assert '"jupyterhub==${JUPYTERHUB_VERSION}"' in install
    assert _args()["JUPYTERHUB_VERSION"] == _pins("hub")["jupyterhub"] == _pins("test")["jupyterhub"]
    import jupyterhub  # the version tests/test_jupyterhub.py runs

    assert jupyterhub.__version__ == _args()["JUPYTERHUB_VERSION"]
    packages = tomllib.loads((REPO_ROOT / "pyproject.toml").read_text())["tool"]["hatch"]["build"]["targets"][
        "wheel"]["packages"]
    compiled = re.search(r"python -m compileall -q ([\w ]+?) &&", install).group(1).split()
    assert sorted(compiled) == sorted(packages)  # every package's bytecode (the users cannot write it)
    copies = [a for kind, a in dockerfile() if kind == "COPY"]
    assert f". {_env()['ROOK_INSTALL_DIR']}" in copies
    ignored = (REPO_ROOT / ".dockerignore").read_text().split()
    assert ".git" in ignored and "**/__pycache__" in ignored  # no developer's numba cache or history in the image


def test_the_image_starts_a_jupyterhub_server_on_the_app():
    steps = dockerfile()
    assert [a for kind, a in steps if kind == "CMD"][-1] == '["jupyterhub-singleuser"]'
    assert [a for kind, a in steps if kind == "ENTRYPOINT"][-1] == '["tini", "--"]'
    env = _env()
    assert env["JUPYTERHUB_DEFAULT_URL"] == APP_URL
    assert env["JUPYTERHUB_ROOT_DIR"] == f"{env['ROOK_INSTALL_DIR']}/notebooks"
    assert (REPO_ROOT / "notebooks" / "app.ipynb").is_file()  # copied to that folder
    assert env["HOME"] == f"/home/{_args()['NB_USER']}"
    # the app's folder is the kernel's (the notebooks, read-only in the image): its class/ is the class folder, which
    # no user can write; a user's records go beside their game in their home (widgets.paths)
    assert "ROOK_FILES_ROOT" not in env
    assert "COPY deploy/jupyter/jupyter_server_config.json /etc/jupyter/jupyter_server_config.json" in \
        [f"{kind} {a}" for kind, a in steps]


# ----- the server's settings: the same everywhere ---------------------------------------------------------------
def test_the_users_servers_settings_are_voila_json_s():
    server = json.loads((DEPLOY / "jupyter" / "jupyter_server_config.json").read_text())
    voila = json.loads((REPO_ROOT / "voila.json").read_text())
    assert server["VoilaConfiguration"]["template"] == voila["VoilaConfiguration"]["template"] == "rook"
    culling = {k: v for k, v in voila["MappingKernelManager"].items() if k.startswith("cull_")}
    assert server["MappingKernelManager"] == culling
    line1 = (REPO_ROOT / "README.md").read_text().split("\n")[1]  # the README's standalone server says the same
    for key in ("cull_interval", "cull_idle_timeout"):
        assert f"--MappingKernelManager.{key}={culling[key]}" in line1
    # the app's kernel manager (caps, a kernel shut down when its page has gone) is the server's own there
    assert server["ServerApp"]["kernel_manager_class"] == voila["VoilaConfiguration"]["multi_kernel_manager_class"]
    mine, theirs = server["RookKernelManager"], voila["RookKernelManager"]
    for key in ("page_gone_seconds", "max_kernels_per_browser", "kernel_memory_mb", "max_kernels"):
        assert mine[key] == theirs[key], key
    # a page's cell outputs are waited for, not dropped after Voila's 4 s (a busy server: a page without its widgets)
    assert server["VoilaExecutor"] == voila["VoilaExecutor"] and voila["VoilaExecutor"]["iopub_timeout"] >= 30
    # one user's server: every page comes through the hub's proxy (one address), in a container of about 1 GB
    assert mine["max_kernels_per_ip"] == 0 and mine["memory_reserve_mb"] <= 512


def test_the_hub_example_opens_the_app_from_the_image_s_notebooks():
    image = _env()
    config = _hub_example()
    assert config.Spawner.default_url == image["JUPYTERHUB_DEFAULT_URL"] == APP_URL
    assert config.Spawner.notebook_dir == image["JUPYTERHUB_ROOT_DIR"]
    assert _environment(config)["JUPYTER_CONFIG_PATH"] == f"{image['ROOK_INSTALL_DIR']}/deploy/jupyter"
    here = _hub_example({"ROOK_INSTALL_DIR": str(REPO_ROOT)})  # as tests/test_jupyterhub.py loads it
    assert Path(here.Spawner.notebook_dir, "app.ipynb").is_file()
    assert Path(_environment(here)["JUPYTER_CONFIG_PATH"], "jupyter_server_config.json").is_file()


def test_the_hub_example_culls_idle_servers_with_the_rights_it_needs():
    config = _hub_example()
    (service,) = config.JupyterHub.services
    assert service["command"][1:3] == ["-m", "jupyterhub_idle_culler"] and "--timeout=3600" in service["command"]
    (role,) = config.JupyterHub.load_roles
    assert role["services"] == [service["name"]]
    assert set(role["scopes"]) == {"list:users", "read:users:activity", "read:servers", "delete:servers"}
    assert "jupyterhub-idle-culler" in _pins("test")


def test_the_helm_values_use_the_image_as_built():
    values, args = _values()["singleuser"], _args()
    assert values["image"]["name"] and values["image"]["tag"]
    assert values["cmd"] == json.loads([a for kind, a in dockerfile() if kind == "CMD"][-1])[0]
    assert values["defaultUrl"] == APP_URL
    assert values["storage"]["homeMountPath"] == _env()["HOME"]  # the game and progress live on the user's volume
    assert (str(values["uid"]), str(values["fsGid"])) == (args["NB_UID"], args["NB_GID"])
    cull = _values()["cull"]
    assert cull["enabled"] is True and cull["timeout"] == 3600


# ----- the compile step, run as the image runs it ---------------------------------------------------------------
@pytest.mark.slow
@pytest.mark.timeout(1800)
def test_the_compile_step_fills_the_cache_that_the_next_process_loads(tmp_path):
    """The image's compile step, ``python -m rookcore.analysis`` with the image's numba settings
    (``$NUMBA_CACHE_DIR``, ``$NUMBA_CPU_NAME``), run from another folder than the project's: the compiled core lands
    in ``$NUMBA_CACHE_DIR`` (not beside the sources, which the image's users cannot write), and a second process (a
    kernel of the running image) loads it from there without compiling again. Run as the tests' own user: the
    image's user cannot be played here (the tests' Python may live in a folder only its owner can enter)."""
    cache = tmp_path / "numba-cache"
    cache.mkdir()
    env = {**{k: v for k, v in os.environ.items() if not k.startswith("NUMBA_")},
           "NUMBA_CACHE_DIR": str(cache), "NUMBA_CPU_NAME": _env()["NUMBA_CPU_NAME"]}

    def step():
        done = subprocess.run([sys.executable, "-m", "rookcore.analysis"], cwd=tmp_path, env=env, text=True,
                              capture_output=True, timeout=1500)
        assert done.returncode == 0, done.stderr[-3000:]
        assert done.stdout.startswith("double-dummy core ready in")
        return {p: p.stat().st_mtime_ns for p in cache.rglob("*") if p.suffix in (".nbi", ".nbc")}

    built = step()
    assert any(p.suffix == ".nbc" and "ddcore" in p.name for p in built), sorted(p.name for p in built)
    assert step() == built, "the second process compiled again instead of loading the cache"
