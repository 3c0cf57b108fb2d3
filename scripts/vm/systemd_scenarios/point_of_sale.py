"""The point of sale's API through the packaged unit: the socket and its group, NotReady without a
touch device, a request's text on the screen, a signature through uinput, Busy, Cancel, a
timeout, a caller outside the group, and a request under way when signpad is killed.

Its guest steps are point_of_sale.sh, beside this file; its host checks are check(run), here."""
from driver import W, H, dark_pixels, region_diff, request_lines


def check(run):
    sock = run.said('socket')
    run.check('S16 the packaged unit makes the control socket 0660 for the signpad-pos group', sock['text'] == 'signpad:signpad-pos 660', sock['text'])
    notready = run.said('requestnotready')
    run.check('S23 without a touch device a request is NotReady', notready.get('exit') == '2' and notready.get('told') == '1', notready['text'])
    request_shot, after_shot = run.shot('sd-request'), run.shot('sd-request-after')
    lines = request_lines(W, H, 2)
    text_ink = dark_pixels(request_shot, W, lines) if request_shot else 0
    before_ink = dark_pixels(run.expected['reloaded'], W, lines)
    run.check('S17 a request shows its title and lines above the box', text_ink > 300 and before_ink < 50,
              f'{text_ink} dark pixels where its two lines go, {before_ink} there without a request')
    signed = run.said('requestsigned')
    run.check('S18 signed through uinput and Done, the reply names the reference and files that exist',
              signed.get('exit') == '0' and signed.get('status') == 'signed' and signed.get('stored') == 'saved' and
              signed.get('reference') == 'VM-1' and signed.get('files') == '6' and signed.get('exist') == 'yes', signed['text'])
    d = region_diff(after_shot, run.expected['reloaded'], W, (0, 0, W, H), threshold=16) if after_shot else 1
    run.check('S19 nothing of the request stays on screen after it', d < 0.01, f'{100 * d:.3f}% of pixels differ from the screen without a request')
    busy, cancel, timed = run.said('requestbusy'), run.said('requestcancel'), run.said('requesttimeout')
    run.check('S20 one request at a time (Busy), CancelRequest, and a request nobody signs times out',
              busy.get('exit') == '2' and busy.get('told') == '1' and cancel.get('exit') == '0' and cancel.get('waiting') == '1' and
              cancel.get('status') == 'cancelled' and timed.get('exit') == '1' and timed.get('status') == 'timedOut',
              f"busy: {busy['text']}; cancel: {cancel['text']}; timeout: {timed['text']}")
    outsider = run.said('requestoutsider')
    run.check('S21 a caller outside the signpad-pos group is refused', outsider.get('exit') == '2' and outsider.get('denied') == '1', outsider['text'])
    killed = run.said('requestkilled')
    run.check('S22 a request under way when signpad is killed answers failed through GetResult after the restart',
              killed.get('status') == 'failed' and int(killed.get('restarts', 0)) > int(killed.get('restarts_before', 0)), killed['text'])
