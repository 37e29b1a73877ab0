"""The type stub python/pivot.pyi (what editors complete from) names exactly what the module
has: every public function and class, and every public member of each class."""

import ast

import pivot


def stub_names(source_dir):
    tree = ast.parse((source_dir / "python" / "pivot.pyi").read_text())
    top, members = set(), {}
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            top.add(node.name)
        if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            top.add(node.target.id)
        if isinstance(node, ast.ClassDef):
            names = set()
            for item in node.body:
                if isinstance(item, ast.FunctionDef):
                    names.add(item.name)
                elif isinstance(item, ast.AnnAssign):
                    names.add(item.target.id)
            members[node.name] = {n for n in names if not n.startswith("_")}
    return top, members


def public(names):
    return {n for n in names if not n.startswith("_")}


def test_stub_matches_the_module(source_dir):
    top, members = stub_names(source_dir)
    aliases = {"ArrayLike", "BodyRef"}  # typing helpers of the stub only
    assert public(dir(pivot)) == public(top) - aliases
    for name, names in members.items():
        cls = getattr(pivot, name)
        if issubclass(cls, Exception):
            continue  # their attributes are set per instance by the translator
        assert public(dir(cls)) == names, name
