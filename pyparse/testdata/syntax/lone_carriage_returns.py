# Needs Python 3.8: old Mac line endings (a lone carriage return), mixed with CRLF.import osa = 1b = [a, 2]def f(x):    if x:        return os.sep    return [*x.parts]
print(f(None), a, b)