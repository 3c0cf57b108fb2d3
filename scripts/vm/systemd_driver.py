#!/usr/bin/env python3
"""Host side of the systemd VM test: boots Debian with systemd as PID 1 and the signpad package
installed and enabled, answers the guest's requests on the serial console, and runs each
scenario's checks (scripts/vm/systemd_scenarios: one pair of files per scenario, its guest steps
in name.sh and its checks in name.py) on what the guest reported: that the shipped, hardened
unit runs the kiosk.
`systemd_driver.py --guest-script` prints the script the guest runs."""
import os, subprocess, sys, time

from driver import boot_vm, guest_messages, step_times, vm_arguments, read_png
import systemd_scenarios


def main():
    if sys.argv[1:] == ['--guest-script']:
        print(systemd_scenarios.guest_script(), end='')
        return
    # Its scenarios run 650 to 840 s on a quiet machine and past 930 s on a busy one (TCG, one
    # CPU each); the limit only catches a VM that hangs.
    args = vm_arguments(__doc__, 'folder with initial.png, signed.png and reloaded.png from signpad replay', timeout=1500)
    # A TPM 2.0 (swtpm behind QEMU's tpm-tis), for the kiosk key the TPM holds (tpm_key).
    vm, qmp, _, started = boot_vm(args, 2048, args.gpu, 'console=ttyS0 quiet loglevel=3 systemd.show_status=false', tpm=True)
    tag = f'systemd {args.gpu}'
    checks, files, journal, statuses, failures, steps = {}, {}, '', {}, [], []
    log = open(os.path.join(args.out, 'serial.log'), 'wb')

    for kind, words, text in guest_messages(vm, log, started + args.timeout, steps):
        if kind == 'timeout':
            failures.append(('finished in time', f'no DONE after {args.timeout:.0f} s'))
            vm.kill()
            break
        if kind == 'file':
            files[words] = text
            continue
        if kind == 'log':
            journal = text
            continue
        if words[1] == 'screendump':
            qmp.cmd('screendump', filename=os.path.join(args.out, words[2] + '.ppm'))
            vm.stdin.write(b'ok\n')
            vm.stdin.flush()
        elif words[1] == 'CHECK':
            checks.setdefault(words[2], []).append(words[3:])
        elif words[1] == 'STATUS':
            statuses[words[2]] = text.split(' ', 3)[3] if len(words) > 3 else ''
        elif words[1] == 'FAIL':
            failures.append(('guest', text))
        elif words[1] == 'DONE':
            break
    try:
        vm.wait(timeout=60)
    except subprocess.TimeoutExpired:
        vm.kill()
    print(f"[{tag}] VM ran {time.time() - started:.1f} s", flush=True)
    print(step_times(tag, steps, time.time()), flush=True)
    open(os.path.join(args.out, 'journal.log'), 'w').write(journal)

    expected = {n: read_png(os.path.join(args.expected, n + '.png'))[2] for n in ('initial', 'signed', 'reloaded')}
    run = systemd_scenarios.Run(tag, args.out, checks, statuses, files, journal, expected)
    run.finish(failures, systemd_scenarios.scenarios())


if __name__ == '__main__':
    main()
