"""AST mutants of one function body: operators, comparisons, boolean operators, negated conditions,
constants, dropped statements, return values. Pure stdlib, no repository code imported.

A mutant is named by its index in a deterministic enumeration of (node, variant) pairs over the
function body, so the side that lists mutants and the side that applies one agree without sending
trees around: `enumerate_mutants(fn)` lists them, `apply_mutant(fn, i)` returns a mutated copy.
"""
import ast
import copy
import itertools

BINOP = {
    ast.Add: ast.Sub, ast.Sub: ast.Add, ast.Mult: ast.Add, ast.Div: ast.Mult, ast.FloorDiv: ast.Div,
    ast.Mod: ast.FloorDiv, ast.Pow: ast.Mult, ast.LShift: ast.RShift, ast.RShift: ast.LShift,
    ast.BitAnd: ast.BitOr, ast.BitOr: ast.BitAnd, ast.BitXor: ast.BitAnd,
}
CMPOP = {
    ast.Lt: ast.LtE, ast.LtE: ast.Lt, ast.Gt: ast.GtE, ast.GtE: ast.Gt, ast.Eq: ast.NotEq,
    ast.NotEq: ast.Eq, ast.In: ast.NotIn, ast.NotIn: ast.In, ast.Is: ast.IsNot, ast.IsNot: ast.Is,
}
SYMBOL = {
    ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.Div: "/", ast.FloorDiv: "//", ast.Mod: "%",
    ast.Pow: "**", ast.LShift: "<<", ast.RShift: ">>", ast.BitAnd: "&", ast.BitOr: "|", ast.BitXor: "^",
    ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">", ast.GtE: ">=", ast.Eq: "==", ast.NotEq: "!=",
    ast.In: "in", ast.NotIn: "not in", ast.Is: "is", ast.IsNot: "is not", ast.And: "and", ast.Or: "or",
}
STATEMENT_LISTS = ("body", "orelse", "finalbody")


def find_function(tree, qualname):
    """The FunctionDef for `qualname` (`f`, `Class.method`, `Outer.Inner.method`), or None; for a
    property, its getter (the unit), not the setter or deleter defined after it under its name."""
    scope = tree.body
    parts = qualname.split(".")
    for i, part in enumerate(parts):
        found = None
        for node in scope:
            last = i == len(parts) - 1
            if last and isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name == part and not _property_part(node):
                found = node
            elif not last and isinstance(node, ast.ClassDef) and node.name == part:
                found = node
        if found is None:
            return None
        if i == len(parts) - 1:
            return found
        scope = found.body
    return None


def _property_part(fn):
    """Whether `fn` is decorated `@<name>.setter` or `@<name>.deleter`."""
    return any(isinstance(d, ast.Attribute) and d.attr in ("setter", "deleter") and isinstance(d.value, ast.Name) and d.value.id == fn.name
               for d in fn.decorator_list)


def _body_nodes(fn):
    """Nodes of the body in a fixed order, the docstring and nested defs' headers excluded."""
    body = list(fn.body)
    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) and isinstance(body[0].value.value, str):
        body = body[1:]
    out = []
    for stmt in body:
        for node in ast.walk(stmt):
            out.append(node)
    return out


def _is_warning(node):
    """A `warnings.warn(...)` / `warn(...)` call: what it does is not a result a task judges."""
    if not isinstance(node, ast.Call):
        return False
    f = node.func
    return (isinstance(f, ast.Attribute) and f.attr == "warn" and isinstance(f.value, ast.Name) and f.value.id == "warnings") or (
        isinstance(f, ast.Name) and f.id == "warn")


def _skip_ids(fn):
    """Ids of nodes never mutated: annotations, the docstring, f-string format specs, and the
    arguments of the exception a `raise` builds (`raise ValueError('bad %r' % x)`): a task judges an
    exception by its type, never its message, so a mutant there could not be killed; likewise a
    `warnings.warn(...)` call (not dropped either, see _statement_drops)."""
    skip = set()
    for node in ast.walk(fn):
        if isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call):
            for arg in node.exc.args + [k.value for k in node.exc.keywords]:
                skip.update(id(n) for n in ast.walk(arg))
        if _is_warning(node):
            skip.update(id(n) for n in ast.walk(node))
        for ann in (getattr(node, "annotation", None), getattr(node, "returns", None)):
            if ann is not None:
                skip.update(id(n) for n in ast.walk(ann))
        if isinstance(node, ast.FormattedValue) and node.format_spec is not None:
            skip.update(id(n) for n in ast.walk(node.format_spec))
        if isinstance(node, ast.JoinedStr):
            skip.update(id(v) for v in node.values if isinstance(v, ast.Constant))
    for assign in _message_only_assigns(fn, skip):
        skip.update(id(n) for n in ast.walk(assign))
    return skip


def _message_only_assigns(fn, skip):
    """Assignments `name = <expr>` whose name is read only inside nodes already skipped (an
    exception's message: `error = "got %d" % n; raise TypeError(error)`), found to a fixpoint (a
    name read only by such an assignment too). Updates `skip` with their nodes as it goes."""
    assigns = [n for n in ast.walk(fn) if isinstance(n, ast.Assign) and len(n.targets) == 1 and isinstance(n.targets[0], ast.Name)]
    found, changed = [], True
    while changed:
        changed = False
        for assign in assigns:
            if assign in found:
                continue
            name = assign.targets[0].id
            loads = [n for n in ast.walk(fn) if isinstance(n, ast.Name) and n.id == name and isinstance(n.ctx, ast.Load)]
            if loads and all(id(n) in skip for n in loads):
                found.append(assign)
                skip.update(id(n) for n in ast.walk(assign))
                changed = True
    return found


def _variants(node, skip):
    """(description, kind, apply(node_copy, parent_info) -> None) for one node; kind for reports."""
    out = []
    if id(node) in skip:
        return out
    if isinstance(node, (ast.BinOp, ast.AugAssign)) and type(node.op) in BINOP:
        new = BINOP[type(node.op)]
        out.append(("%s → %s" % (SYMBOL[type(node.op)], SYMBOL[new]), "arith", lambda n, new=new: setattr(n, "op", new())))
    if isinstance(node, ast.Compare):
        for k, op in enumerate(node.ops):
            if type(op) in CMPOP:
                new = CMPOP[type(op)]

                def apply(n, k=k, new=new):
                    n.ops[k] = new()

                out.append(("%s → %s" % (SYMBOL[type(op)], SYMBOL[new]), "compare", apply))
    if isinstance(node, ast.BoolOp):
        new = ast.Or if isinstance(node.op, ast.And) else ast.And
        out.append(("%s → %s" % (SYMBOL[type(node.op)], SYMBOL[new]), "boolean", lambda n, new=new: setattr(n, "op", new())))
    if isinstance(node, (ast.If, ast.While, ast.IfExp, ast.Assert)):
        if isinstance(node.test, ast.UnaryOp) and isinstance(node.test.op, ast.Not):
            out.append(("not removed", "negate", lambda n: setattr(n, "test", n.test.operand)))
        else:
            out.append(("condition negated", "negate", lambda n: setattr(n, "test", ast.UnaryOp(op=ast.Not(), operand=n.test))))
    if isinstance(node, ast.Constant):
        v = node.value
        if type(v) is bool:
            out.append(("%r → %r" % (v, not v), "constant", lambda n: setattr(n, "value", not n.value)))
        elif type(v) is int:
            out.append(("%r → %r" % (v, v + 1), "constant", lambda n: setattr(n, "value", n.value + 1)))
            out.append(("%r → %r" % (v, v - 1), "constant", lambda n: setattr(n, "value", n.value - 1)))
        elif type(v) is float:
            out.append(("%r → %r" % (v, v + 1.0), "constant", lambda n: setattr(n, "value", n.value + 1.0)))
        elif type(v) is str:
            new = "" if v else "x"
            out.append(("%r → %r" % (_short(v), new), "constant", lambda n, new=new: setattr(n, "value", new)))
    if isinstance(node, ast.Return) and node.value is not None and not (isinstance(node.value, ast.Constant) and node.value.value is None):
        out.append(("return value → None", "return", lambda n: setattr(n, "value", ast.Constant(value=None))))
    return out


def _short(s):
    return s if len(s) <= 20 else s[:17] + "..."


def _statement_drops(fn):
    """(stmt node, owner list name) for statements that can be replaced by `pass` (not an
    assignment that only builds an exception's message, _message_only_assigns)."""
    message_only = set(id(a) for a in _message_only_assigns(fn, _skip_ids(fn)))
    drops = []
    body = list(fn.body)
    docstring = body[0] if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) and isinstance(body[0].value.value, str) else None
    for node in ast.walk(fn):
        for field in STATEMENT_LISTS:
            stmts = getattr(node, field, None)
            if not isinstance(stmts, list):
                continue
            for stmt in stmts:
                if stmt is docstring or isinstance(stmt, (ast.Pass, ast.Return, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Global, ast.Nonlocal)):
                    continue
                if isinstance(stmt, ast.Expr) and (isinstance(stmt.value, ast.Constant) or _is_warning(stmt.value)):
                    continue
                if id(stmt) in message_only:
                    continue
                drops.append(stmt)
    return drops


def _points(fn):
    skip = _skip_ids(fn)
    points = []
    for node in _body_nodes(fn):
        for description, kind, apply in _variants(node, skip):
            points.append((node, description, kind, apply))
    drops = set(id(s) for s in _statement_drops(fn))
    for node in _body_nodes(fn):
        if id(node) in drops:
            points.append((node, "statement removed", "drop", None))
    return points


def _constants_near(node):
    """Int/float/str constants in and around a mutated node: boundary values for the input search."""
    values = []
    for n in ast.walk(node):
        if isinstance(n, ast.Constant) and type(n.value) in (int, float, str) and len(values) < 8:
            values.append(n.value)
    return values


def _innermost_statements(fn):
    """id(node) -> the innermost statement holding it (a statement holds itself; `fn` for its own parts)."""
    owner = {}

    def visit(node, stmt):
        for child in ast.iter_child_nodes(node):
            held_by = child if isinstance(child, ast.stmt) else stmt
            owner[id(child)] = held_by
            visit(child, held_by)

    visit(fn, fn)
    return owner


def enumerate_mutants(fn):
    """[{index, line, reach, description, kind, constants}] for the body of `fn` (not mutated).

    `reach` is [first, last], the lines of the innermost statement holding the mutated node: a run
    whose line coverage (worker line tracer) has none of them never executed the node, so the mutant
    behaves exactly as the original on it. (Not `line` alone: a constant inside a multi-line literal
    may have no line event of its own, but the statement holding it always has one when it runs.)"""
    out = []
    owner = _innermost_statements(fn)
    for index, (node, description, kind, _apply) in enumerate(cached_points(fn)[0]):
        line = getattr(node, "lineno", fn.lineno)
        stmt = owner.get(id(node), fn)
        reach = [getattr(stmt, "lineno", fn.lineno), getattr(stmt, "end_lineno", None) or getattr(fn, "end_lineno", None) or line]
        out.append({"index": index, "line": line, "reach": reach, "description": "line %d: %s" % (line, description), "kind": kind,
                    "constants": _constants_near(node)})
    return out


_POINTS = {}


def cached_points(fn):
    """(_points(fn), each point's node as its position in ast.walk(fn)), computed once per def node
    (finding the points is ~20 times a deep copy's cost on a long function). Callers never mutate `fn`."""
    hit = _POINTS.get(id(fn))
    if hit is None or hit[0] is not fn:
        points = _points(fn)
        position = {id(n): k for k, n in enumerate(ast.walk(fn))}
        hit = (fn, points, [position[id(p[0])] for p in points])
        _POINTS[id(fn)] = hit
    return hit[1], hit[2]


def apply_mutant(fn, index):
    """A mutated deep copy of `fn`, with its nodes at the original line numbers. The copy walks in
    the same order as `fn`, so a point's node is found at its position (cached_points)."""
    points, positions = cached_points(fn)
    clone = copy.deepcopy(fn)
    _node, _description, kind, apply = points[index]
    node = next(itertools.islice(ast.walk(clone), positions[index], None))
    if kind == "drop":
        replacement = ast.copy_location(ast.Pass(), node)
        for parent in ast.walk(clone):
            for field in STATEMENT_LISTS:
                stmts = getattr(parent, field, None)
                if isinstance(stmts, list):
                    for k, stmt in enumerate(stmts):
                        if stmt is node:
                            stmts[k] = replacement
    else:
        apply(node)
    clone.decorator_list = []
    return ast.fix_missing_locations(clone)


def wrap_for_compile(fn_clone, qualname):
    """A Module holding the (mutated) def inside empty classes named like its owners, so that the
    compiled code object has the same qualname and free variables (`__class__` for super())."""
    node = fn_clone
    for owner in reversed(qualname.split(".")[:-1]):
        node = ast.ClassDef(name=owner, bases=[], keywords=[], body=[node], decorator_list=[])
        ast.copy_location(node, fn_clone)
    module = ast.Module(body=[node], type_ignores=[])
    return ast.fix_missing_locations(module)


def find_code(code, qualname):
    """The code object named `qualname` among `code` and its constants, depth first."""
    if getattr(code, "co_qualname", None) == qualname:
        return code
    for const in code.co_consts:
        if hasattr(const, "co_consts"):
            found = find_code(const, qualname)
            if found is not None:
                return found
    return None
