# Needs Python 3.8: a format spec may start with '=' (fill or alignment);
# an assignment expression in a replacement field must be parenthesized.
title = "results"
n = 3
print(f"{title:=^40}")
print(f"{n:=8}")
print(f"{n!r:=>8} {title:{n}=<20}")
print(f"{(m := n + 1)} {m}")
