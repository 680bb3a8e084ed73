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
    raise NotImplementedError


def join_csv_line(fields, sep=","):
    """Joins fields into one CSV line, quoting a field only when it must be.

    A field is quoted when it contains the separator, a quote, a line break, or starts or ends
    with a space; quotes inside are doubled. Non-str fields are written with ``str()``, and None as
    an empty field. Raises ValueError when ``sep`` is not a single character or is a quote.

    >>> join_csv_line(["a", "b,c", 3])
    'a,"b,c",3'
    """
    raise NotImplementedError
