"""Pass/fail counting for the Python test scripts: check() each claim, summary()
prints the "NAME: N passed, N failed" line that tests/run_all.sh sums."""
passed = failed = 0
MAX_SHOWN = 40  # FAIL lines printed (a broken build fails thousands of checks)


def check(ok, what):
    global passed, failed
    if ok:
        passed += 1
        return
    failed += 1
    if failed <= MAX_SHOWN:
        print("FAIL " + what[:600])


def summary(name):
    """The last line; the script's exit status."""
    print("%s: %d passed, %d failed" % (name, passed, failed))
    return 1 if failed else 0
