"""One line of comma-separated values, with quoted fields."""


def split_csv_line(line, sep=","):
    """Splits one CSV line into its fields.

    A field may be quoted with double quotes; inside quotes the separator is literal and ``""``
    stands for one quote. Unquoted fields are kept as written (no stripping). An empty line is one
    empty field. Raises ValueError for an unterminated quote or text after a closing quote, and
    when ``sep`` is not a single character or is a quote.

    >>> split_csv_line('a,"b,c",d')
    ['a', 'b,c', 'd']
    >>> split_csv_line('"say ""hi"" now",x')
    ['say "hi" now', 'x']
    """
    if len(sep) != 1 or sep == '"':
        raise ValueError("sep must be one character other than a quote")
    fields = []
    field = ""
    i = 0
    quoted = False
    while i < len(line):
        ch = line[i]
        if quoted:
            if ch == '"':
                if i + 1 < len(line) and line[i + 1] == '"':
                    field += '"'
                    i += 2
                    continue
                quoted = False
                if i + 1 < len(line) and line[i + 1] != sep:
                    raise ValueError("text after a closing quote at %d" % (i + 1))
            else:
                field += ch
        elif ch == sep:
            fields.append(field)
            field = ""
        elif ch == '"' and field == "":
            quoted = True
        else:
            field += ch
        i += 1
    if quoted:
        raise ValueError("unterminated quote")
    fields.append(field)
    return fields


def join_csv_line(fields, sep=","):
    """Joins fields into one CSV line, quoting a field only when it must be.

    A field is quoted when it contains the separator, a quote, a line break, or starts or ends
    with a space; quotes inside are doubled. Non-str fields are written with ``str()``, and None as
    an empty field. Raises ValueError when ``sep`` is not a single character or is a quote.

    >>> join_csv_line(["a", "b,c", 3])
    'a,"b,c",3'
    """
    if len(sep) != 1 or sep == '"':
        raise ValueError("sep must be one character other than a quote")
    out = []
    for field in fields:
        text = "" if field is None else str(field)
        needs = sep in text or '"' in text or "\n" in text or "\r" in text or text[:1] == " " or text[-1:] == " "
        if needs:
            text = '"' + text.replace('"', '""') + '"'
        out.append(text)
    return sep.join(out)
