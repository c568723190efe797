# Needs Python 3.11: exception groups (PEP 654), with and without a space.
def handle(run):
    try:
        run()
    except* ValueError as group:
        print(group.exceptions)
    except *(KeyError, TypeError):
        pass
    except	*OSError:
        raise

    try:
        run()
    except *RuntimeError:
        pass
    else:
        pass
    finally:
        pass
