"""The back office's certificate ends while signpad runs: the kiosk goes out of service, takes no
walk-up signature it could not keep, and a reload with the renewed certificate brings it back.

Its guest steps are certificate_ended.sh, beside this file, which writes two back offices'
certificates (public parts, made by OpenSSL's CA command): one that ends on 2030-01-01, so
that moving the guest's clock past it ends it under a running signpad, and its renewal, valid
to 2099. Its host checks are check(run), here."""
from driver import W, H, region_diff


def check(run):
    said = run.said('certificateended')
    before, out, touched, renewed = (run.shot(n) for n in ('sd-before-certificate-end', 'sd-out-of-service',
                                                            'sd-out-of-service-touched', 'sd-certificate-renewed'))
    whole = (0, 0, W, H)
    shown = region_diff(out, before, W, whole, threshold=16) if out and before else 0
    drawn = region_diff(touched, out, W, whole, threshold=16) if touched and out else 1
    back = region_diff(renewed, before, W, whole, threshold=16) if renewed and before else 1
    ok = said.get('outofservice') == '1' and said.get('unwritten') == '0' and said['state'] == 'active/running' and \
        said.get('pid') == said.get('before')
    run.check('S31 once the certificate ends the kiosk is out of service, takes no signature, and a reload with the renewed one brings it back',
              ok and shown > 0.005 and drawn < 0.001 and back < 0.01,
              f"{said['text']}; out of service differs from before by {100 * shown:.3f}%, the touched screen from it by {100 * drawn:.3f}%, "
              f"the renewed from before by {100 * back:.3f}%")
