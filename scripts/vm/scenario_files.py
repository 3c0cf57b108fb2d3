"""What the two VM tests share: their scenarios are files in a folder (e2e_scenarios,
systemd_scenarios), two for each scenario: name.sh holds its guest steps (shell) and name.py its
host checks (check(run)); the folder's guest.sh is the start and helpers the steps run after."""
import importlib, os, sys


def load(package, order):
    """The scenario modules of `package`, in `order`."""
    return [importlib.import_module(f'{package}.{name}') for name in order]


def guest_script(package, order):
    """The script the guest runs: guest.sh, each scenario's steps (its .sh) in order, each after a
    blank line, a comment naming it, another blank line and its STEP line, then end.sh."""
    folder = os.path.join(os.path.dirname(os.path.abspath(__file__)), package)

    def text(name):
        with open(os.path.join(folder, name)) as f:
            return f.read()
    steps = [f'\n# --- {name} ({package}/{name}.sh)\n\nsay STEP {name}\n{text(name + ".sh")}' for name in order]
    return text('guest.sh') + ''.join(steps) + '\n' + text('end.sh')


class Checks:
    """The results of one VM's checks, each printed as it is made with the VM's tag."""

    def __init__(self, tag):
        self.tag, self.results = tag, []

    def check(self, name, ok, detail):
        self.results.append((name, ok))
        print(f"{'PASS' if ok else 'FAIL'} [{self.tag}] {name}: {detail}", flush=True)

    def finish(self, failures, scenarios):
        """Records what went wrong in the run itself, runs every scenario's checks, says how many
        passed and exits non-zero if any failed."""
        for name, detail in failures:
            self.check(name, False, detail)
        for scenario in scenarios:
            scenario.check(self)
        failed = [n for n, ok in self.results if not ok]
        print(f"[{self.tag}] {len(self.results) - len(failed)} passed, {len(failed)} failed", flush=True)
        sys.exit(1 if failed else 0)
