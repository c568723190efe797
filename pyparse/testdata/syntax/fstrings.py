# Needs Python 3.12: f-strings as PEP 701 has them.
names = {"a": 1}
rows = ["x", "y"]
width = 8
print(f"{names["a"]}")
print(f"{'\n'.join(rows)}")
print(f"{"\N{BULLET}"} {f"{f"{1 + 1}"}"}")
print(f"{names
       ['a']}")
print(f"""{
    names["a"]  # a comment inside a replacement field
}""")
print(f"{width=} {width = !r:>{width}} {width:{'>'}{width}}")
print(f"{'{'} {{}} {width:=^{width}}")
