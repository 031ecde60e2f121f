"""Writes minitorch/_C.pyi: the hand-written stubs of scripts/_C.template.pyi with the op table's stubs
(csrc/python/ops.def) put in at its two markers, the Tensor methods and operators at

    # [generated] Tensor methods and operators

and the module functions at

    # [generated] functions

A stub is written for every form the table gives an op (minitorch.<name>, Tensor.<name>, the in-place
<name>_ forms, the operator dunders of its slots), from torch's signature strings, as bind.c builds the
forms: a method is the function without its `Tensor input` and its out=, an overload marked |function
exists only as a function, and an int list that is the only positional parameter may also be given as
separate ints (view(2, 3)), which becomes a second overload with *args.

    python scripts/make_stubs.py            # rewrites minitorch/_C.pyi
    python scripts/make_stubs.py --check    # exit status 1 when minitorch/_C.pyi is not what it would write

tests/test_typing.py runs the check, so the committed stubs always match the table.
"""

import argparse
import ast
import keyword
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OPS_DEF = os.path.join(ROOT, "csrc", "python", "ops.def")
BIND_H = os.path.join(ROOT, "csrc", "python", "bind.h")
TEMPLATE = os.path.join(ROOT, "scripts", "_C.template.pyi")
OUTPUT = os.path.join(ROOT, "minitorch", "_C.pyi")

METHOD_MARKER = "# [generated] Tensor methods and operators"
FUNCTION_MARKER = "# [generated] functions"
WIDTH = 110

# torch's should_allow_numbers_as_tensors (argparse.c): a number is accepted where these take a Tensor
NUMBERS_AS_TENSORS = {
    "add", "add_", "div", "div_", "divide", "divide_", "mul", "mul_", "multiply", "multiply_", "sub", "sub_",
    "subtract", "subtract_", "true_divide", "true_divide_", "to", "_to_copy", "copy_", "copy", "floor_divide",
    "floor_divide_", "_conj",
}

TYPES = {
    "Tensor": "Tensor",
    "Scalar": "_Number",
    "int64_t": "_int",
    "int": "_int",
    "DeviceIndex": "_int",
    "SymInt": "_int",
    "double": "_float",
    "float": "_float",
    "bool": "_bool",
    "IntArrayRef": "_Size",
    "SymIntArrayRef": "_Size",
    "TensorList": "Sequence[Tensor]",
    "ScalarType": "_dtype",
    "Layout": "Any",
    "MemoryFormat": "memory_format",
    "Device": "_Device",
    "Generator": "Any",
    "c10::string_view": "str",
    "std::string_view": "str",
    "::std::string_view": "str",
    "std::string": "str",
    "str": "str",
    "PyObject*": "Any",
}

RETURNS = {"bool": "_bool", "int": "_int", "float": "_float", "ScalarType": "_dtype",
           "minitorch.return_types.max": "_ReturnTypeMax", "minitorch.return_types.min": "_ReturnTypeMin",
           "minitorch.return_types.sort": "_ReturnTypeSort", "minitorch.return_types.topk": "_ReturnTypeTopk",
           "minitorch.return_types.aminmax": "_ReturnTypeAminmax", "minitorch.return_types.cummax": "_ReturnTypeCummax",
           "minitorch.return_types.cummin": "_ReturnTypeCummin"}

# the operator dunders of each slot flag: (names, operand type)
SLOTS = {
    "MT_NB_ADD": (["__add__", "__radd__"], "_TensorOrNumber"),
    "MT_NB_SUBTRACT": (["__sub__", "__rsub__"], "_TensorOrNumber"),
    "MT_NB_MULTIPLY": (["__mul__", "__rmul__"], "_TensorOrNumber"),
    "MT_NB_TRUE_DIVIDE": (["__truediv__", "__rtruediv__"], "_TensorOrNumber"),
    "MT_NB_INPLACE_ADD": (["__iadd__"], "_TensorOrNumber"),
    "MT_NB_INPLACE_SUBTRACT": (["__isub__"], "_TensorOrNumber"),
    "MT_NB_INPLACE_MULTIPLY": (["__imul__"], "_TensorOrNumber"),
    "MT_NB_INPLACE_TRUE_DIVIDE": (["__itruediv__"], "_TensorOrNumber"),
    "MT_NB_MATRIX_MULTIPLY": (["__matmul__", "__rmatmul__"], "Tensor"),
    "MT_NB_NEGATIVE": (["__neg__"], None),
    "MT_NB_ABSOLUTE": (["__abs__"], None),
    "MT_RICHCMP_LT": (["__lt__"], "_TensorOrNumber"),
    "MT_RICHCMP_LE": (["__le__"], "_TensorOrNumber"),
    "MT_RICHCMP_EQ": (["__eq__"], "object"),
    "MT_RICHCMP_NE": (["__ne__"], "object"),
    "MT_RICHCMP_GT": (["__gt__"], "_TensorOrNumber"),
    "MT_RICHCMP_GE": (["__ge__"], "_TensorOrNumber"),
}


# ---- reading the table ---------------------------------------------------------------------------------


def flag_values():
    """The MT_* flags of bind.h, by name."""
    values = {}
    for name, expr in re.findall(r"^#define (MT_[A-Z_]+) (\(.*\))", open(BIND_H).read(), re.M):
        expr = re.sub(r"/\*.*?\*/", "", expr).replace("1u", "1")
        try:
            values[name] = eval(expr, {}, dict(values))
        except (NameError, SyntaxError):
            continue
    return values


def split_top(text, sep=","):
    """Splits at `sep` outside parentheses and string literals."""
    parts, depth, start, i = [], 0, 0, 0
    while i < len(text):
        c = text[i]
        if c == '"':
            i += 1
            while text[i] != '"':
                i += 2 if text[i] == "\\" else 1
        elif c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
        elif c == sep and depth == 0:
            parts.append(text[start:i].strip())
            start = i + 1
        i += 1
    parts.append(text[start:].strip())
    return parts


def c_string(text):
    """The value of adjacent C string literals."""
    return "".join(ast.literal_eval('"%s"' % s) for s in re.findall(r'"((?:[^"\\]|\\.)*)"', text))


def read_rows():
    """The rows of ops.def in order, each {id, flags, sigs, section}."""
    source = open(OPS_DEF).read()
    flags = flag_values()
    rows, section, pos = [], None, 0
    token = re.compile(r"/\*\s*----\s*([\w -]+?)\s*\*/|/\*.*?\*/|//[^\n]*|\bMT_OP\(", re.S)
    while True:
        m = token.search(source, pos)
        if m is None:
            break
        if m.group(1) is not None:
            section = m.group(1)
            pos = m.end()
            continue
        if not m.group(0).startswith("MT_OP("):
            pos = m.end()
            continue
        depth, i = 1, m.end()
        while depth:
            c = source[i]
            if c == '"':
                i += 1
                while source[i] != '"':
                    i += 2 if source[i] == "\\" else 1
            depth += {"(": 1, ")": -1}.get(c, 0)
            i += 1
        args = split_top(source[m.end():i - 1])
        if len(args) != 7:
            raise SystemExit("ops.def: MT_OP with %d fields: %s" % (len(args), args[0]))
        value = 0
        for name in [f.strip() for f in args[1].split("|")]:
            value |= flags[name]
        sigs_text = args[4]
        if not sigs_text.startswith("MT_SIGS("):
            raise SystemExit("ops.def: %s: the signatures must be MT_SIGS(...)" % args[0])
        sigs = [c_string(s) for s in split_top(sigs_text[len("MT_SIGS("):-1])]
        rows.append({"id": args[0], "flags": value, "flag_names": [f.strip() for f in args[1].split("|")],
                     "sigs": [parse_sig(s) for s in sigs], "section": section})
        pos = i
    return rows, flags


def parse_sig(text):
    m = re.match(r"^(\w+)\((.*?)\)((?:\|\w+)*)(?: -> (.*))?$", text)
    if m is None:
        raise SystemExit("ops.def: malformed signature: " + text)
    name, params_text, flags, ret = m.groups()
    params, kw = [], False
    for piece in params_text.split(", ") if params_text else []:
        if piece == "*":
            kw = True
            continue
        ptype, rest = piece.split(" ", 1)
        pname, _, default = rest.partition("=")
        params.append({"type": ptype, "name": pname, "default": default if _ else None, "kw": kw})
    flag_set = set(flags.split("|")[1:])
    self_index = next((i for i, p in enumerate(params) if p["type"] == "Tensor" and p["name"] in ("input", "self")),
                      None)
    return {"name": name, "params": params, "deprecated": "deprecated" in flag_set,
            "hidden": "hidden" in flag_set or "deprecated" in flag_set, "function_only": "function" in flag_set,
            "visible_hidden": "hidden" in flag_set, "ret": ret, "self": self_index}


# ---- writing stubs -------------------------------------------------------------------------------------


def form_params(sig, method, drop_out):
    params = list(sig["params"])
    if drop_out:
        params = [p for p in params if p["name"] != "out"]
    if method:
        params = [p for i, p in enumerate(params) if i != sig["self"]]
    return params


def py_type(param, op_name):
    m = re.match(r"^([\w:*]+)(?:\[(\d+)\])?(\?)?$", param["type"])
    base, size, optional = m.groups()
    t = TYPES[base]
    if base == "Tensor" and op_name in NUMBERS_AS_TENSORS and param["name"] != "out":
        t = "_TensorOrNumber"
    if base in ("IntArrayRef", "SymIntArrayRef") and size:
        t = "_int | _Size"
    if optional or param["default"] == "None":
        t += " | None"
    return t


def py_default(param):
    d = param["default"]
    if d is None:
        return None
    if d in ("None", "True", "False") or re.match(r"^-?\d+(\.\d*)?(e-?\d+)?$", d) or d[:1] in "\"'":
        return d
    if d in ("true", "false"):
        return d.capitalize()
    return "..."


def py_name(name):
    return name + "_" if keyword.iskeyword(name) else name


def render(prefix, pieces, ret):
    """`def name(a, b) -> R: ...`, wrapped at WIDTH with continuation lines under the first parameter."""
    line = "%s%s) -> %s: ..." % (prefix, ", ".join(pieces), ret)
    if len(line) <= WIDTH:
        return [line]
    lines, current, indent = [], prefix, " " * len(prefix)
    for k, piece in enumerate(pieces):
        piece += ", " if k < len(pieces) - 1 else ") -> %s: ..." % ret
        if len(current) + len(piece.rstrip()) > WIDTH and current.strip() and current != prefix:
            lines.append(current.rstrip())
            current = indent
        current += piece
    lines.append(current.rstrip())
    return lines


def stubs_for(sig, name, method, drop_out):
    """The overloads of one signature in one form: (parameters, return type), a parameter being
    (kind, name, type, default) with kind "pos", "kw" or "var"."""
    params = form_params(sig, method, drop_out)
    ret = RETURNS.get(sig["ret"], sig["ret"]) if sig["ret"] else "Tensor"
    positional = [p for p in params if not p["kw"]]
    variants = [None]
    if len(positional) == 1 and re.match(r"^(Sym)?IntArrayRef(\[\d+\])?\??$", positional[0]["type"]):
        variants.append("varargs")
    out = []
    for variant in variants:
        pieces = []
        for p in params:
            if variant == "varargs" and p is positional[0]:
                pieces.append(("var", py_name(p["name"]), "_int", None))
            else:
                pieces.append(("kw" if p["kw"] else "pos", py_name(p["name"]), py_type(p, sig["name"]),
                               py_default(p)))
        out.append((pieces, ret))
    return out


def type_covers(wide, narrow):
    """Whether every value of type `narrow` is one of type `wide` (unions of the stub's names)."""
    members = set(wide.split(" | "))
    if "_TensorOrNumber" in members:
        members |= {"Tensor", "_Number", "_int", "_float", "_bool"}
    if "_Number" in members:
        members |= {"_int", "_float", "_bool"}
    return set(narrow.split(" | ")) <= members


def covers(a, b):
    """Whether every call overload b takes also fits overload a (so b could never match after a)."""
    (pa, ra), (pb, rb) = a, b
    if ra != rb:
        return False
    by_name = {p[1]: p for p in pa}
    pos_a = [p[1] for p in pa if p[0] == "pos"]
    pos_b = [p[1] for p in pb if p[0] == "pos"]
    if pos_a[:len(pos_b)] != pos_b:
        return False
    for kind, pname, ptype, default in pb:
        q = by_name.get(pname)
        if q is None or q[0] != kind or (default is not None and q[3] is None):
            return False
        if not type_covers(q[2], ptype):
            return False
    names_b = {p[1] for p in pb}
    return all(p[3] is not None for p in pa if p[1] not in names_b)


def render_stub(name, stub, method, indent):
    params, ret = stub
    pieces = ["self"] if method else []
    star = False
    for kind, pname, ptype, default in params:
        if kind == "var":
            pieces.append("*%s: %s" % (pname, ptype))
            star = True
            continue
        if kind == "kw" and not star:
            pieces.append("*")
            star = True
        pieces.append("%s: %s%s" % (pname, ptype, "" if default is None else " = " + default))
    return render("%sdef %s(" % (indent, name), pieces, ret)


def form_stubs(row, form, indent):
    """The stub lines of one form of a row: "function", "method", "inplace_method", "inplace_function"."""
    method = form in ("method", "inplace_method")
    stubs = []
    for sig in row["sigs"]:
        if sig["visible_hidden"] or (form != "function" and sig["function_only"]):
            continue
        if sig["deprecated"] and any(keyword.iskeyword(p["name"]) for p in sig["params"]):
            continue    # cuda(async=...): only reachable through **kwargs
        name = sig["name"] + ("_" if form.startswith("inplace") else "")
        for stub in stubs_for(sig, name, method, form != "function"):
            # an overload that takes nothing an earlier one does not (a Scalar where the earlier one's Tensor
            # takes numbers too) adds nothing, and mypy rejects a stub overload that can never match
            if not any(covers(earlier, stub) for _, earlier in stubs):
                stubs.append((name, stub))
    lines = []
    for name, stub in stubs:
        if len(stubs) > 1:
            lines.append(indent + "@overload")
        lines += render_stub(name, stub, method, indent)
    return lines


def slot_stubs(row, indent):
    lines = []
    for flag in row["flag_names"]:
        if flag not in SLOTS:
            continue
        names, operand = SLOTS[flag]
        for name in names:
            if operand is None:
                lines.append("%sdef %s(self) -> Tensor: ..." % (indent, name))
            elif operand == "object":
                lines.append("%sdef %s(self, other: object) -> Tensor: ...  # type: ignore[override]" % (indent, name))
            else:
                lines.append("%sdef %s(self, other: %s) -> Tensor: ..." % (indent, name, operand))
    return lines


def hand_written(template):
    """The names the template defines itself, as Tensor methods and as functions: their stubs are not
    generated (a hand-written stub wins, for what torch's signature strings cannot say, such as a return type
    that depends on an argument)."""
    methods, functions, in_tensor = set(), set(), False
    for line in template.splitlines():
        if line.startswith("class "):
            in_tensor = line.startswith("class Tensor")
        m = re.match(r"^(    )?def (\w+)\(", line)
        if m:
            (methods if m.group(1) and in_tensor else functions if not m.group(1) else set()).add(m.group(2))
    return methods, functions


def generate(rows, flags, skip_methods=frozenset(), skip_functions=frozenset()):
    methods, functions, operators = [], [], []
    section_m = section_f = None
    for row in rows:
        f = row["flags"]
        body_m = []
        name = row["sigs"][0]["name"]
        if f & flags["MT_METHOD"] and name not in skip_methods:
            body_m += form_stubs(row, "method", "    ")
        if f & flags["MT_INPLACE_METHOD"] and name + "_" not in skip_methods:
            body_m += form_stubs(row, "inplace_method", "    ")
        if body_m and row["section"] != section_m:
            methods += ["", "    # ---- %s" % row["section"]]
            section_m = row["section"]
        methods += body_m
        body_f = []
        if f & flags["MT_FUNCTION"] and name not in skip_functions:
            body_f += form_stubs(row, "function", "")
        if f & flags["MT_INPLACE_FUNCTION"] and name + "_" not in skip_functions:
            body_f += form_stubs(row, "inplace_function", "")
        if body_f and row["section"] != section_f:
            functions += ["", "# ---- %s" % row["section"]]
            section_f = row["section"]
        functions += body_f
        operators += slot_stubs(row, "    ")
    if operators:
        methods += ["", "    # ---- operators"] + operators
    return methods, functions


def render_file():
    rows, flags = read_rows()
    template = open(TEMPLATE).read()
    methods, functions = generate(rows, flags, *hand_written(template))
    out = []
    for line in template.splitlines():
        if line.strip() == METHOD_MARKER:
            out += ["    # (generated from csrc/python/ops.def by scripts/make_stubs.py)"] + methods[1:]
        elif line.strip() == FUNCTION_MARKER:
            out += ["# (generated from csrc/python/ops.def by scripts/make_stubs.py)"] + functions[1:]
        else:
            out.append(line)
    return "\n".join(out) + "\n"


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--check", action="store_true", help="compare with minitorch/_C.pyi instead of writing it")
    args = p.parse_args()
    text = render_file()
    if args.check:
        current = open(OUTPUT).read() if os.path.exists(OUTPUT) else ""
        if current != text:
            print("minitorch/_C.pyi is not what scripts/make_stubs.py writes: run it", file=sys.stderr)
            return 1
        return 0
    with open(OUTPUT, "w") as f:
        f.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
