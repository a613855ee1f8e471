"""The wizard's languages: which one to use, and installing its translators.

English is the source language (no catalogue). Simplified Chinese uses two catalogues:
Qt's own ``qtbase_zh_CN.qm`` (QWizard's Back/Next/Cancel, QMessageBox and QFileDialog buttons),
which PySide6-Essentials ships in ``QLibraryInfo.path(TranslationsPath)``, and ours,
``resources/i18n/gpu_wizard_zh_CN.qm``. Ours also carries QWizard's button texts, so the buttons
stay translated in a bundle that trimmed Qt's catalogues away.

The choice is saved in ``QSettings`` under :data:`SETTINGS_KEY`; without a saved choice the
system locale decides (any ``zh*`` locale -> Simplified Chinese, everything else -> English).
Switching at run time: call :func:`install_language` again; it removes the translators it
installed before, and Qt sends every widget a ``QEvent.LanguageChange``.
"""

from __future__ import annotations

import logging

from PySide6.QtCore import (
    QT_TRANSLATE_NOOP,
    QCoreApplication,
    QLibraryInfo,
    QLocale,
    QSettings,
    QTranslator,
)

from wizard.resources import resource_path

log = logging.getLogger(__name__)

SETTINGS_KEY = "language"
DEFAULT_LANGUAGE = "en"
CATALOGUE = "gpu_wizard"

# Translators this module installed, so a switch can remove them (and so Python keeps them
# alive: a QTranslator that is garbage-collected silently stops translating).
_installed: list[QTranslator] = []
_current = DEFAULT_LANGUAGE


def available_languages() -> list[tuple[str, str]]:
    """``(code, native name)`` pairs for the language switch, English first."""
    return [("en", "English"), ("zh_CN", "简体中文")]


def _codes() -> set[str]:
    return {code for code, _name in available_languages()}


def normalize(lang: str | None) -> str | None:
    """Map a locale name (``zh_CN``, ``zh-Hans-CN``, ``zh_TW``, ``en_US``) to one of ours."""
    if not lang:
        return None
    name = str(lang).replace("-", "_")
    if name in _codes():
        return name
    if name.lower().startswith("zh"):
        return "zh_CN"
    if name.lower().startswith("en") or name in ("C", "POSIX"):
        return "en"
    return None


def system_language(locale: QLocale | None = None) -> str:
    """The language the system locale asks for: Chinese for any ``zh`` locale, else English."""
    locale = QLocale.system() if locale is None else locale
    if locale.language() == QLocale.Language.Chinese:
        return "zh_CN"
    for name in locale.uiLanguages():
        if name.lower().startswith("zh"):
            return "zh_CN"
    return "en"


def saved_language(settings: QSettings | None = None) -> str | None:
    """The language the user picked earlier, or None."""
    settings = QSettings() if settings is None else settings
    return normalize(settings.value(SETTINGS_KEY, None))


def save_language(lang: str, settings: QSettings | None = None) -> None:
    settings = QSettings() if settings is None else settings
    settings.setValue(SETTINGS_KEY, lang)


def preferred_language(settings: QSettings | None = None) -> str:
    """The saved choice if there is one, else the system's language."""
    return saved_language(settings) or system_language()


def current_language() -> str:
    """The language :func:`install_language` last installed."""
    return _current


def qt_translations_dir() -> str:
    return QLibraryInfo.path(QLibraryInfo.LibraryPath.TranslationsPath)


def _load(app: QCoreApplication, name: str, directory: str) -> QTranslator | None:
    translator = QTranslator(app)
    if translator.load(name, directory):
        return translator
    translator.deleteLater()
    return None


def install_language(app: QCoreApplication, lang: str, save: bool = False) -> bool:
    """Make ``lang`` the application's language; returns whether our catalogue loaded.

    Previously installed translators are removed first. English needs no catalogue and always
    succeeds. Qt's ``qtbase`` catalogue is installed before ours, so ours wins where both
    translate the same text. With ``save`` the choice is stored in QSettings.
    """
    global _current
    lang = normalize(lang) or DEFAULT_LANGUAGE
    for translator in _installed:
        app.removeTranslator(translator)
        translator.deleteLater()
    _installed.clear()

    ok = True
    if lang != DEFAULT_LANGUAGE:
        qt_dir = qt_translations_dir()
        qt_catalogue = _load(app, f"qtbase_{lang}", qt_dir)
        if qt_catalogue is None:
            log.warning("Qt's own qtbase_%s.qm is not in %s; dialogs keep English buttons", lang,
                        qt_dir)
        else:
            _installed.append(qt_catalogue)
        ours_dir = str(resource_path("i18n"))
        ours = _load(app, f"{CATALOGUE}_{lang}", ours_dir)
        if ours is None:
            log.error("Cannot load %s_%s.qm from %s: run scripts/update_translations.py",
                      CATALOGUE, lang, ours_dir)
            ok = False
        else:
            _installed.append(ours)
        for translator in _installed:
            app.installTranslator(translator)
    QLocale.setDefault(QLocale(lang if ok else DEFAULT_LANGUAGE))
    _current = lang if ok else DEFAULT_LANGUAGE
    if save:
        save_language(_current)
    return ok


def _qwizard_button_texts() -> list[str]:
    """QWizard's own button texts (qwizard.cpp, context "QWizard"), listed so that lupdate puts
    them into our catalogue too: the buttons stay translated when qtbase_*.qm is missing.
    Classic/Modern style, Vista style (Windows) and Mac style texts."""
    return [
        QT_TRANSLATE_NOOP("QWizard", "< &Back"),
        QT_TRANSLATE_NOOP("QWizard", "&Next >"),
        QT_TRANSLATE_NOOP("QWizard", "&Next"),
        QT_TRANSLATE_NOOP("QWizard", "&Finish"),
        QT_TRANSLATE_NOOP("QWizard", "Cancel"),
        QT_TRANSLATE_NOOP("QWizard", "&Help"),
        QT_TRANSLATE_NOOP("QWizard", "Commit"),
        QT_TRANSLATE_NOOP("QWizard", "Go Back"),
        QT_TRANSLATE_NOOP("QWizard", "Continue"),
        QT_TRANSLATE_NOOP("QWizard", "Done"),
        QT_TRANSLATE_NOOP("QWizard", "Help"),
    ]
