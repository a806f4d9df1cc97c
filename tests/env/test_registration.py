"""``import paiju`` is all it takes for Gymnasium to make ``paiju/Mazhan-v0`` and
``paiju/MaDiao-v0``, whichever of the two is imported first, and Gymnasium's own
``module:id`` form needs no import at all; importing paiju alone still loads neither
Gymnasium nor NumPy (the cores stay standard library only).

Each case runs in a fresh interpreter: in this one, Gymnasium and paiju are loaded already."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent.parent


def run(code: str) -> str:
    """What ``code`` prints in a fresh interpreter (it fails the test if the code fails)."""
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=120
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


MAKE = "env = gym.make({id!r}); env.reset(seed=1); print(env.spec.id, env.unwrapped.game)"


@pytest.mark.parametrize(
    ("imports", "env_id"),
    [
        ("import paiju; import gymnasium as gym", "paiju/Mazhan-v0"),
        ("import gymnasium as gym; import paiju", "paiju/Mazhan-v0"),
        ("import paiju; import gymnasium as gym", "paiju/MaDiao-v0"),
        ("import gymnasium as gym; import paiju.mazhan", "paiju/MaDiao-v0"),
    ],
)
def test_importing_paiju_registers_the_environments(imports: str, env_id: str) -> None:
    game = "mazhan" if "Mazhan" in env_id else "madiao"
    assert run(f"{imports}\n" + MAKE.format(id=env_id)) == f"{env_id} {game}"


def test_gymnasiums_module_form_needs_no_import_of_paiju() -> None:
    assert run("import gymnasium as gym\n" + MAKE.format(id="paiju:paiju/Mazhan-v0")) == (
        "paiju/Mazhan-v0 mazhan"
    )


def test_importing_paiju_loads_no_gymnasium_until_it_is_imported() -> None:
    code = (
        "import sys\n"
        "import paiju\n"
        "print(sorted({m.split('.')[0] for m in sys.modules} & {'gymnasium', 'numpy'}))\n"
        "import gymnasium\n"
        "print(gymnasium.spec('paiju/Mazhan-v0').entry_point)\n"
        "print(paiju.register_envs())\n"
    )
    assert run(code).splitlines() == ["[]", "paiju.mazhan.env:single_env", "[]"]


def test_registering_again_is_harmless() -> None:
    import gymnasium as gym

    import paiju

    assert paiju.register_envs() == []
    assert gym.spec("paiju/Mazhan-v0").entry_point == "paiju.mazhan.env:single_env"
    assert sorted(paiju.gymnasium_envs()) == [
        ("paiju/MaDiao-v0", "paiju.madiao.env:single_env"),
        ("paiju/Mazhan-v0", "paiju.mazhan.env:single_env"),
    ]
