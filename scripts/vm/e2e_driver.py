#!/usr/bin/env python3
"""Host side of the kiosk VM test: boots the busybox VM, answers the guest's requests on the
serial console (screendumps over QMP, pointer input over QMP), collects the exports and the
daemon's log, and runs each scenario's checks (scripts/vm/e2e_scenarios: one pair of files per
scenario, its guest steps in name.sh and its checks in name.py) on what the guest reported,
against the offscreen rendering of the same input by `signpad replay`.
`e2e_driver.py --guest-script` prints the script the guest runs (the VM's /init)."""
import os, sys, time

from driver import W, H, boot_vm, guest_messages, layout, step_times, vm_arguments
import e2e_scenarios


def tablet_stroke(qmp, box):
    x0, y0, x1, y1 = box
    def abs_event(x, y):
        return [{'type': 'abs', 'data': {'axis': 'x', 'value': int(x * 0x7fff / W)}},
                {'type': 'abs', 'data': {'axis': 'y', 'value': int(y * 0x7fff / H)}}]
    start = (x0 + (x1 - x0) * 0.25, y0 + (y1 - y0) * 0.5)
    qmp.cmd('input-send-event', events=abs_event(*start))
    time.sleep(0.1)
    qmp.cmd('input-send-event', events=[{'type': 'btn', 'data': {'down': True, 'button': 'left'}}])
    for i in range(1, 41):
        x = start[0] + (x1 - x0) * 0.5 * i / 40
        y = start[1] + (y1 - y0) * 0.2 * ((i % 10) - 5) / 5
        qmp.cmd('input-send-event', events=abs_event(x, y))
        time.sleep(0.02)
    qmp.cmd('input-send-event', events=[{'type': 'btn', 'data': {'down': False, 'button': 'left'}}])


def main():
    if sys.argv[1:] == ['--guest-script']:
        print(e2e_scenarios.guest_script(), end='')
        return
    args = vm_arguments(__doc__, 'folder with initial.png and signed.png from signpad replay')
    vm, qmp, resizer, started = boot_vm(args, 1024, args.gpu, 'console=ttyS0 quiet loglevel=3 signpad.mode=e2e')
    logs, log = [], open(os.path.join(args.out, 'serial.log'), 'wb')
    phase_files, markers, failures = {'main': {}, 'killed': {}, 'full': {}, 'calibrate': {}, 'bench': {}}, [], []
    files = phase_files['main']
    box, _, _ = layout(W, H)
    booted, steps = None, []

    def answer(word=b'ok'):
        vm.stdin.write(word + b'\n')
        vm.stdin.flush()

    for kind, words, text in guest_messages(vm, log, started + args.timeout, steps):
        if kind == 'timeout':
            failures.append(('finished in time', f'no DONE after {args.timeout:.0f} s'))
            break
        if kind == 'file':
            files[words] = text
            continue
        if kind == 'log':
            logs.append(text)
            continue
        if words[1] == 'screendump':
            if booted is None:
                booted = time.time() - started
            path = os.path.join(args.out, words[2] + '.ppm')
            qmp.cmd('screendump', filename=path)
            answer()
        elif words[1] == 'tablet':
            tablet_stroke(qmp, box)
            answer()
        elif words[1] == 'resize':
            if resizer:
                resizer.resize(*map(int, words[2].split('x')))
                answer()
            else:
                answer(b'unsupported')
        elif words[1] == 'PHASE':
            files = phase_files[words[2]]
        elif words[1] == 'FAIL':
            failures.append(('guest', text))
        elif words[1] == 'DONE':
            break
        elif words[1].isupper():
            # What a scenario reports for its checks: "LATE DISPLAY cards=[] alive=yes", "CAUGHT mid-write".
            markers.append(text[4:])
    vm.wait(timeout=60)
    elapsed = time.time() - started
    print(f"[{args.gpu}] VM ran {elapsed:.1f} s (daemon ready {booted or -1:.1f} s after start)", flush=True)
    print(step_times(args.gpu, steps, time.time()), flush=True)

    all_logs = '\n'.join(logs)
    open(os.path.join(args.out, 'signpad.log'), 'w').write(all_logs)
    run = e2e_scenarios.Run(args, markers, phase_files, all_logs)
    run.finish(failures, e2e_scenarios.scenarios())


if __name__ == '__main__':
    main()
