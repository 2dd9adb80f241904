"""`grbda info MODEL --dot`: the cluster tree as Graphviz, checked against the model the bindings
load, and rendered by `dot` when Graphviz is installed."""
import html
import re
import shutil
import subprocess

import pytest

import grbda
from conftest import CLI, model_path, run_cli

ROBOTS = ["mini_cheetah.urdf", "four_bar.urdf", "six_bar.urdf", "mit_humanoid.urdf", "builtin:tello"]


def load(name):
    return grbda.load(name if name.startswith("builtin:") else model_path(name))


def arg(name):
    return name if name.startswith("builtin:") else model_path(name)


@pytest.mark.parametrize("robot", ROBOTS)
def test_dot_has_a_box_per_cluster_holding_its_bodies(robot):
    model = load(robot)
    dot = run_cli("info", arg(robot), "--dot", json_output=False)
    for k, cluster in enumerate(model.clusters):
        block = re.search(r"subgraph cluster_%d \{(.*?)\n  \}" % k, dot, re.S)
        assert block, "no box for cluster %d" % k
        nodes = re.findall(r"^\s+b(\d+) \[label=\"([^\"]*)\"", block.group(1), re.M)
        assert [(int(i), name) for i, name in nodes] == [(i, model.bodies[i].name) for i in cluster.bodies]
        assert cluster.type_name in block.group(1)
    joints = re.findall(r"-> b(\d+) \[lhead=cluster_(\d+), penwidth=2, label=\"(\w+)\"", dot)
    assert [(int(b), int(k), t) for b, k, t in joints] == [
        (c.first_body, k, c.type_name) for k, c in enumerate(model.clusters)]
    assert dot.count("style=dashed") == len(model.loops)


def test_loops_are_dashed_between_the_bodies_they_join():
    path = model_path("generated/four_bar_branch_2_2.urdf")
    model = grbda.load(path)
    dot = run_cli("info", path, "--dot", json_output=False)
    dashed = re.findall(r"(\w+) -> (\w+) \[style=dashed.*label=\"([^\"]*)\"", dot)
    expected = [("ground" if l.predecessor_body < 0 else "b%d" % l.predecessor_body,
                 "ground" if l.successor_body < 0 else "b%d" % l.successor_body, l.name) for l in model.loops]
    assert dashed == expected and len(expected) == 4


@pytest.mark.skipif(shutil.which("dot") is None, reason="Graphviz (dot) is not installed")
@pytest.mark.parametrize("robot", ROBOTS)
def test_graphviz_renders_the_dot(robot):
    dot = run_cli("info", arg(robot), "--dot", json_output=False)
    svg = subprocess.run(["dot", "-Tsvg"], input=dot, capture_output=True, text=True)
    assert svg.returncode == 0 and not svg.stderr, svg.stderr
    assert "<svg" in svg.stdout and load(robot).bodies[-1].name in html.unescape(svg.stdout)


def test_dot_and_json_together_are_a_usage_error():
    if not CLI.exists():
        pytest.skip("the grbda command is not built")
    out = subprocess.run([str(CLI), "info", model_path("four_bar.urdf"), "--dot", "--json"],
                         capture_output=True, text=True)
    assert out.returncode == 2 and "--json or --dot" in out.stderr
