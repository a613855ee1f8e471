"""The command line speaks the user's language: --lang, else the system locale; JSON stays
English (it is a contract for tools)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[2]
PROFILE = str(REPO_ROOT / "tests" / "profiles" / "win-tf210-cudnn-never-copied.json")


def cli(*args: str, lang_env: str = "C.UTF-8") -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items()
           if k not in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")}
    env["LANG"] = lang_env
    return subprocess.run([sys.executable, "-m", "wizard", *args], capture_output=True, text=True,
                          encoding="utf-8", timeout=120, check=False, cwd=str(REPO_ROOT), env=env)


def test_check_in_chinese_with_lang() -> None:
    result = cli("check", "--profile", PROFILE, "--lang", "zh_CN", "--no-color")
    assert result.returncode == 1, result.stderr
    out = result.stdout
    assert out.startswith("GPU 设置向导检查")
    assert "平台：" in out and "未就绪：请先修复“cuDNN”这一层。" in out
    assert "找不到 cuDNN [cudnn_missing]" in out and "修复：" in out


def test_the_system_locale_decides_without_lang() -> None:
    assert cli("check", "--profile", PROFILE, "--no-color", lang_env="zh_CN.UTF-8"
               ).stdout.startswith("GPU 设置向导检查")
    assert cli("check", "--profile", PROFILE, "--no-color", lang_env="en_US.UTF-8"
               ).stdout.startswith("GPU Setup Wizard check")
    # --lang wins over the locale, before or after the command
    assert cli("--lang", "en", "check", "--profile", PROFILE, lang_env="zh_CN.UTF-8"
               ).stdout.startswith("GPU Setup Wizard check")


def test_markdown_in_chinese_and_json_in_english() -> None:
    markdown = cli("check", "--profile", PROFILE, "--markdown", "--lang", "zh_CN").stdout
    assert markdown.startswith("# GPU 设置向导报告") and "| 层 | 状态 | 摘要 |" in markdown
    data = json.loads(cli("check", "--profile", PROFILE, "--json", "--lang", "zh_CN").stdout)
    finding = data["layers"][3]["findings"][0]
    assert finding["code"] == "cudnn_missing"
    assert finding["message"].startswith("cuDNN 8.1 was not found")
