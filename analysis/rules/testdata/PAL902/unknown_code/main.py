x = 1  # pallas-ls: ignore[PAL1O1]  # want: PAL902 "`PAL1O1` names no pallas-ls rule"
