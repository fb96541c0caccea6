"""The sandbox's web pages: the merchant dashboard (/dashboard) and the payment
checkout page (/checkout/{id}). Server-rendered Jinja, a little plain JavaScript,
no build step. Like the JSON blueprints, views parse, call services, render."""

from datetime import datetime

from flask import Flask, render_template, request
from flask.sessions import SecureCookieSessionInterface
from flask_wtf.csrf import CSRFError, CSRFProtect

from sandbox.clock import from_iso
from sandbox.services import settings
from sandbox.web import checkout, dashboard

csrf = CSRFProtect()

SESSION_COOKIE = "sandbox_session"


def init_web(app: Flask) -> None:
    """Sessions signed with the store's own key, CSRF checks on the pages' forms
    only (the JSON API authenticates every request and has no cookies), and the
    two page blueprints."""
    app.secret_key = settings.session_secret(app.extensions["sandbox"].store)
    app.config.update(
        SESSION_COOKIE_NAME=SESSION_COOKIE,
        SESSION_COOKIE_HTTPONLY=True,
        SESSION_COOKIE_SAMESITE="Lax",
        WTF_CSRF_CHECK_DEFAULT=False,  # only the pages' forms: see protect_forms
        WTF_CSRF_TIME_LIMIT=None,  # a token lives as long as its session
    )
    app.session_interface = CookieSessions()
    csrf.init_app(app)
    app.jinja_env.filters.update(when=when, amount=amount)
    app.register_blueprint(dashboard.blp)
    app.register_blueprint(checkout.blp)
    pages = {dashboard.blp.name, checkout.blp.name}

    @app.before_request
    def protect_forms():
        """Before anything else a page does with a form."""
        if request.method == "POST" and request.blueprint in pages:
            csrf.protect()

    app.register_error_handler(CSRFError, csrf_failed)


class CookieSessions(SecureCookieSessionInterface):
    """Flask's signed-cookie sessions, opened only for a request that carries the
    cookie: API calls never do, and building the signer for each of them cost a
    tenth of a get-payment's time."""

    def open_session(self, app, request):
        if self.get_cookie_name(app) not in request.cookies:
            return self.session_class()
        return super().open_session(app, request)


def csrf_failed(error: CSRFError):
    return render_template("error.html", status=400, message="This form's security token is missing or no longer "
                                                           "valid. Reload the page and try again."), 400


def when(value) -> str:
    """A timestamp as the merchant's clock shows it: `2026-11-21 10:00:05 UTC`."""
    if not value:
        return "—"
    moment = value if isinstance(value, datetime) else from_iso(value)
    return moment.strftime("%Y-%m-%d %H:%M:%S UTC")


def amount(value, asset: str) -> str:
    """An amount with its asset: `12.5 USDT`."""
    return f"{value} {asset}"
