"""The application factory: config, instance folder, secret key, cookies."""

from __future__ import annotations

import stat

from referee import TEMPLATES_DIR, create_app, load_or_create_secret_key


def test_config_defaults(app, tmp_path):
    assert app.config["MAX_CONTENT_LENGTH"] == 16 * 1024 * 1024
    assert app.config["SESSION_COOKIE_HTTPONLY"] is True
    assert app.config["SESSION_COOKIE_SAMESITE"] == "Lax"
    assert app.template_folder == str(TEMPLATES_DIR)
    assert (TEMPLATES_DIR / "base.html").is_file()
    assert app.instance_path == str(tmp_path / "instance")


def test_secret_key_generated_once_with_mode_0600(tmp_path):
    instance = tmp_path / "inst"
    app = create_app({"DATABASE": str(tmp_path / "db.sqlite")}, instance_path=str(instance))
    key_file = instance / "secret_key"
    assert stat.S_IMODE(key_file.stat().st_mode) == 0o600
    assert len(app.config["SECRET_KEY"]) == 64
    again = create_app({"DATABASE": str(tmp_path / "db.sqlite")}, instance_path=str(instance))
    assert again.config["SECRET_KEY"] == app.config["SECRET_KEY"]


def test_load_or_create_secret_key_is_stable(tmp_path):
    first = load_or_create_secret_key(tmp_path)
    assert len(first) == 64 and int(first, 16) >= 0
    assert load_or_create_secret_key(tmp_path) == first


def test_default_database_lives_in_instance_folder(tmp_path):
    app = create_app({}, instance_path=str(tmp_path / "inst"))
    assert app.config["DATABASE"] == str(tmp_path / "inst" / "referee.sqlite")
    assert (tmp_path / "inst" / "referee.sqlite").is_file()


def _session_cookie(response):
    return next(h for h in response.headers.getlist("Set-Cookie") if h.startswith("referee_session="))


def test_session_cookie_flags_on_plain_http(client, database):
    from referee import store

    match = store.create_match(database, "ratatat", ["Ann", "Bo"])
    cookie = _session_cookie(client.get(f"/m/{match.id}"))
    assert "HttpOnly" in cookie and "SameSite=Lax" in cookie
    assert "Secure" not in cookie


def test_session_cookie_secure_over_https(client, database):
    from referee import store

    match = store.create_match(database, "ratatat", ["Ann", "Bo"])
    cookie = _session_cookie(client.get(f"/m/{match.id}", base_url="https://localhost"))
    assert "Secure" in cookie and "HttpOnly" in cookie


def test_instance_config_applies_under_overrides_and_overrides_win(tmp_path):
    instance = tmp_path / "inst"
    instance.mkdir()
    (instance / "config.py").write_text("SSE_KEEPALIVE = 9.0\nSSE_MAX_LIFETIME = 120.0\n")
    app = create_app({"DATABASE": str(tmp_path / "db.sqlite"), "SSE_MAX_LIFETIME": 60.0},
                     instance_path=str(instance))
    assert app.config["SSE_KEEPALIVE"] == 9.0
    assert app.config["SSE_MAX_LIFETIME"] == 60.0


def test_testing_config_skips_the_instance_config(tmp_path):
    instance = tmp_path / "inst"
    instance.mkdir()
    (instance / "config.py").write_text("SSE_KEEPALIVE = 9.0\n")
    app = create_app({"TESTING": True, "DATABASE": str(tmp_path / "db.sqlite")}, instance_path=str(instance))
    assert app.config["SSE_KEEPALIVE"] == 15.0
