"""The web app: blueprints, CSRF, security headers, error pages."""

from __future__ import annotations

from flask import Flask, Response
from flask_wtf.csrf import CSRFProtect

from scorekeeper.games import GAMES

csrf = CSRFProtect()

# Everything the pages need is served by the app itself: no CDN, no inline code.
CONTENT_SECURITY_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
)


def register(app: Flask) -> None:
    from scorekeeper.web import access, api, decks, errors, export, inputs, judge, play, sessions

    csrf.init_app(app)
    csrf.exempt(api.bp)
    errors.init_app(app)
    inputs.init_app(app)
    app.before_request(access.upgrade_old_cookie)
    for blueprint in (sessions.bp, play.bp, export.bp, judge.bp, decks.bp, api.bp):
        app.register_blueprint(blueprint)
    app.jinja_env.globals["GAMES"] = GAMES

    @app.after_request
    def security_headers(response: Response) -> Response:
        response.headers["Content-Security-Policy"] = CONTENT_SECURITY_POLICY
        response.headers["X-Content-Type-Options"] = "nosniff"
        response.headers["X-Frame-Options"] = "DENY"
        # Join links carry an edit key: never leak a URL to another site. The app's own
        # requests carry it: over HTTPS the CSRF check wants a same-origin Referer.
        response.headers["Referrer-Policy"] = "same-origin"
        return response
