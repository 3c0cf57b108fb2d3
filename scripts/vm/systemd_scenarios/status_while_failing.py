"""`systemctl status` through a device appearing, an export folder failing retry after retry, the
folder writable again and the device gone; the journal says the failure once and its end.

Its guest steps are status_while_failing.sh, beside this file; its host checks are check(run), here."""


def check(run):
    counts = run.said('statusexport')
    start, reading, failing, recovered, gone = (run.statuses.get(k, '') for k in ('start', 'reading', 'failing', 'recovered', 'gone'))
    run.check('S10 systemctl status says what signpad shows and reads, and that it is not saving while the folder fails',
              start.startswith('showing ') and '"signpad demo touchscreen"' in reading and failing.startswith('NOT SAVING: ')
              and '1 signature(s) kept and retried' in failing and recovered.startswith('showing ') and 'touchscreen' in recovered
              and 'waiting for a touch device' in gone and int(counts.get('after', 0)) == int(counts.get('before', -1)) + 1,
              f"start: {start!r}; a device: {reading!r}; the folder unwritable: {failing!r}; writable again: {recovered!r}; "
              f"the device gone: {gone!r}; signatures written {counts['text']}")
    exportlog = run.said('exportlog')
    run.check('S11 an export folder failing retry after retry is said once in the journal, and its end is said',
              exportlog.get('failed') == '1' and exportlog.get('mended') == '1',
              f"the folder unwritable for three retries: {exportlog['text']}")
    priorities = run.said('priorities')
    run.check('S33 each journal line has its level as its priority: journalctl -p err shows the export failure, -p warning no ready line',
              int(priorities.get('failures', 0)) >= 1 and priorities.get('as_error') == priorities.get('failures')
              and int(priorities.get('ready', 0)) >= 1 and priorities.get('ready_as_warning') == '0',
              priorities['text'])
    fields, whole = run.said('journalfields'), run.said('journalwhole')
    run.check('S34 under systemd each journal line of the whole run is at most 120 characters, its details are fields of their own (SIGNPAD_REASON, CODE_FILE) that select entries',
              0 < int(whole.get('longest', 0)) <= 120 and int(whole.get('lines', 0)) > 50
              and int(fields.get('reasons', 0)) >= 1 and int(fields.get('code', 0)) >= 1
              and int(fields.get('selected', 0)) >= 1 and int(fields.get('inline', 0)) >= 1,
              f"{fields['text']}; the whole run: {whole['text']}, its longest line: {run.statuses.get('longestline', 'never reported')!r}")
