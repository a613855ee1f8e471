"""The cudnn layer and cudnn_installs discovery on inline profiles: the cuDNN 8.1 zip copied into
CUDA v11.2 (complete, partial, never), cuDNN 8.9 and zlibwapi.dll, cuDNN 9's own folders, an old
copy shadowing the right one, conda and pip-wheel environments, Linux packages."""

from __future__ import annotations

from cuda_profiles import (
    PF,
    TOOLKITS,
    Machine,
    codes,
    cudnn_header,
    finding,
    run,
    windows_tf210,
)

from wizard.core import cuda_installs, cudnn_installs, knowledge
from wizard.core.cudnn_installs import WINDOWS_FILES, needs_zlibwapi, parse_cudnn_header
from wizard.core.model import FAIL, NOT_APPLICABLE, OK, Target

V112 = f"{TOOLKITS}\\v11.2"


def _cuda112(m: Machine) -> str:
    path = m.win_toolkit("11.2", "11.2.2")
    m.path(path + "\\bin", path + "\\libnvvp")
    m.registry_path(path + "\\bin", path + "\\libnvvp")
    return path


# ------------------------------------------------------------------------------------------
# Parsing
# ------------------------------------------------------------------------------------------


def test_header_parsing_ignores_the_version_formula():
    text = (
        "#define CUDNN_MAJOR 8\n#define CUDNN_MINOR 1\n#define CUDNN_PATCHLEVEL 1\n"
        "#define CUDNN_VERSION (CUDNN_MAJOR * 1000 + CUDNN_MINOR * 100 + CUDNN_PATCHLEVEL)\n"
    )
    assert parse_cudnn_header(text) == "8.1.1"
    assert parse_cudnn_header("#  define CUDNN_MAJOR 7\n# define CUDNN_MINOR 6\n") == "7.6"
    assert parse_cudnn_header('#include "cudnn_version.h"\n') is None


def test_zlibwapi_rule():
    assert not needs_zlibwapi("8.1.1", True)
    assert not needs_zlibwapi("8.2.4", True)
    assert needs_zlibwapi("8.3.0", True)
    assert needs_zlibwapi("8.9.7", True)
    assert not needs_zlibwapi("9.3.0", True)
    assert not needs_zlibwapi("8.9.7", False)
    assert not needs_zlibwapi("8", True)  # minor unknown: do not guess


def test_the_81_file_set_is_the_front_dll_and_six_sub_dlls():
    assert WINDOWS_FILES[8][0] == "cudnn64_8.dll"
    assert sorted(WINDOWS_FILES[8][1:]) == sorted(
        f"cudnn_{part}_{kind}64_8.dll" for part in ("ops", "cnn", "adv")
        for kind in ("infer", "train")
    )
    assert len(WINDOWS_FILES[9]) == 8


# ------------------------------------------------------------------------------------------
# Windows, TF 2.10 (cuDNN 8.1, CUDA 11.2)
# ------------------------------------------------------------------------------------------


def test_cudnn_81_copied_into_cuda_112_is_ok():
    m = Machine()
    path = _cuda112(m)
    m.cudnn_into(path, "8.1.1")
    cuda_result, result = run(m, windows_tf210())
    assert cuda_result.status == OK
    assert result.status == OK, [(f.code, f.evidence) for f in result.findings]
    (install,) = result.facts["installs"]
    assert install["version"] == "8.1.1" and install["source"] == "cuda_folder"
    assert install["missing"] == []
    assert install["header"].endswith("cudnn_version.h")
    assert result.facts["loader_first"]["dir"].lower() == (path + "\\bin").lower()
    assert result.facts["needed"]["zlibwapi"] is False


def test_cudnn_never_copied():
    m = Machine()
    _cuda112(m)
    _, result = run(m, windows_tf210())
    assert result.status == FAIL
    f = finding(result, "cudnn_missing")
    assert str(f.params["file_note"]) == " (cudnn64_8.dll)"
    assert f.fix.action == "install_cudnn"
    assert f.fix.action_params == {"dest": V112, "cudnn": "8.1", "cuda": "11.2"}
    assert knowledge.cudnn_download_url("8.1", "11.2") in [link.url for link in f.fix.links]
    assert any(f'"{V112}\\bin"' in c for c in f.fix.commands)
    assert [s.key for s in f.fix.steps][:2] == ["download", "copy_cudnn"]


def test_cudnn_missing_and_cuda_missing_suggests_the_default_folder():
    m = Machine()
    m.path()
    _, result = run(m, windows_tf210())
    f = finding(result, "cudnn_missing")
    assert f.fix.action_params["dest"] == V112


def test_cudnn_89_without_zlibwapi_then_with_it():
    m = Machine()
    path = _cuda112(m)
    m.cudnn_into(path, "8.9.7")
    _, result = run(m, windows_tf210())
    assert result.status == FAIL
    assert codes(result) == ["zlibwapi_missing"]
    f = finding(result, "zlibwapi_missing")
    assert f.params["found"] == "8.9.7"
    assert f.fix.action_params == {"dest": path + "\\bin"}
    assert any("zlibwapi.dll" in c for c in f.fix.commands)

    m.files["C:\\Windows\\System32\\zlibwapi.dll"] = None
    _, result = run(m, windows_tf210())
    assert result.status == OK, codes(result)


def test_zlibwapi_off_the_path_is_named_in_the_evidence():
    m = Machine()
    path = _cuda112(m)
    m.cudnn_into(path, "8.6.0")
    other = m.win_toolkit("11.8", env=False)  # another toolkit, not on PATH
    m.files[other + "\\bin\\zlibwapi.dll"] = None
    _, result = run(m, windows_tf210())
    f = finding(result, "zlibwapi_missing")
    assert "v11.8\\bin\\zlibwapi.dll" in str(f.evidence)
    assert result.facts["zlibwapi"] == [other + "\\bin\\zlibwapi.dll"]


def test_partial_copy_lists_the_missing_sub_dlls():
    m = Machine()
    path = _cuda112(m)
    m.cudnn_into(path, "8.1.1", only=["cudnn64_8.dll"])
    _, result = run(m, windows_tf210())
    assert result.status == FAIL
    f = finding(result, "cudnn_partial_install")
    assert f.params["missing"] == ", ".join(WINDOWS_FILES[8][1:])
    assert f.params["found"] == "8.1.1"
    assert f.fix.action == "install_cudnn"
    assert f.fix.steps[0].key == "copy_missing_files"
    assert "cudnn_ops_infer64_8.dll" in f.message()


def test_header_copied_but_no_dlls():
    m = Machine()
    path = _cuda112(m)
    m.cudnn_into(path, "8.1.1", only=[])
    _, result = run(m, windows_tf210())
    assert result.status == FAIL
    f = finding(result, "cudnn_partial_install")
    assert f.params["missing"].startswith("cudnn64_8.dll, ")


def test_older_cudnn_8_is_a_mismatch():
    m = Machine()
    path = _cuda112(m)
    m.cudnn_into(path, "8.0.5")
    _, result = run(m, windows_tf210())
    assert result.status == FAIL
    f = finding(result, "cudnn_version_mismatch")
    assert f.params["found"] == "8.0.5" and f.params["cudnn"] == "8.1"
    assert f.fix.action == "install_cudnn"


def test_cudnn_7_only_is_a_mismatch():
    m = Machine()
    path = _cuda112(m)
    m.cudnn_into(path, "7.6.5")
    _, result = run(m, windows_tf210())
    assert result.status == FAIL
    assert finding(result, "cudnn_version_mismatch").params["found"] == "7.6.5"


def test_old_copy_earlier_on_path_shadows_the_right_one():
    m = Machine()
    path = m.win_toolkit("11.2", "11.2.2")
    m.cudnn_into(path, "8.1.1")
    old = "C:\\tools\\cudnn-8.0"
    m.cudnn_into(old, "8.0.5")
    m.path(old + "\\bin", path + "\\bin")
    m.registry_path(old + "\\bin", path + "\\bin")
    _, result = run(m, windows_tf210())
    assert result.status == FAIL
    f = finding(result, "cudnn_version_mismatch")
    assert f.params["path"] == old + "\\bin"
    assert f.params["shadowed"].lower() == (path + "\\bin").lower()
    assert old + "\\bin" in f.message()
    assert f.fix.action == "set_env"
    assert f.fix.action_params["prepend"].lower() == (path + "\\bin").lower()
    assert result.facts["loader_first"]["version"] == "8.0.5"
    assert {i["source"] for i in result.facts["installs"]} == {"cuda_folder", "loader_path"}


def test_cudnn_9_windows_folder_layout():
    m = Machine()
    root = f"{PF}\\NVIDIA\\CUDNN\\v9.1"
    m.cudnn_into(root, "9.1.0", lib_dir=root + "\\bin\\12.4", include_dir=root + "\\include\\12.4")
    m.files[root + "\\lib\\12.4\\x64\\cudnn.lib"] = None
    host = m.host()
    found = cudnn_installs.discover(host, cuda_installs.discover(host))
    (install,) = found.installs
    assert install.source == "cudnn_folder"
    assert install.version == "9.1.0" and install.cuda == "12.4"
    assert install.lib_dir == root + "\\bin\\12.4"
    assert install.missing == []

    # TF 2.10 needs cuDNN 8: a cuDNN 9 is the wrong major, wherever it is.
    cuda_path = _cuda112(m)
    _, result = run(m, windows_tf210())
    assert result.status == FAIL
    f = finding(result, "cudnn_version_mismatch")
    assert f.params["found"] == "9.1.0"
    assert f.fix.action_params == {"dest": cuda_path, "cudnn": "8.1", "cuda": "11.2"}


def test_cudnn_9_folder_for_a_cudnn_9_target_must_be_on_path():
    m = Machine()
    cuda_root = m.win_toolkit("12.4")
    root = f"{PF}\\NVIDIA\\CUDNN\\v9.1"
    m.cudnn_into(root, "9.1.0", lib_dir=root + "\\bin\\12.4\\x64",
                 include_dir=root + "\\include\\12.4")
    m.path(cuda_root + "\\bin")
    m.registry_path(cuda_root + "\\bin")
    target = Target("torch-like", "12.4", "9.1", None, "test", "windows")
    _, result = run(m, target)
    assert result.status == FAIL
    f = finding(result, "cudnn_missing")
    assert f.fix.action == "set_env"
    assert f.fix.action_params == {"name": "PATH", "append": root + "\\bin\\12.4\\x64"}
    assert "not on PATH" in str(f.evidence)
    # the fix summary says what the steps do (no "download and copy" for an installed cuDNN)
    assert f.fix_summary() == (
        f"cuDNN 9.1 is installed in {root}\\bin\\12.4\\x64, but the loader does not search "
        "that folder: add it to PATH, then open a new terminal."
    )

    m.path(cuda_root + "\\bin", root + "\\bin\\12.4\\x64")
    m.registry_path(cuda_root + "\\bin", root + "\\bin\\12.4\\x64")
    _, result = run(m, target)
    assert result.status == OK, codes(result)


def test_cudnn_8_exe_installer_folder():
    m = Machine()
    _cuda112(m)
    root = f"{PF}\\NVIDIA\\CUDNN\\v8.1"
    m.cudnn_into(root, "8.1.1")
    _, result = run(m, windows_tf210())
    f = finding(result, "cudnn_missing")  # found, but its bin is not on PATH
    assert f.fix.action_params == {"name": "PATH", "append": root + "\\bin"}


def test_windows_conda_env_with_cudatoolkit_and_cudnn():
    m = Machine()
    prefix = "C:\\Users\\me\\miniconda3\\envs\\tf"
    exe = m.python(prefix + "\\python.exe", prefix, conda=True, tf="2.10.0")
    m.files[prefix + "\\Library\\bin\\cudart64_110.dll"] = None
    m.cudnn_into(prefix + "\\Library", "8.1.0")
    m.files[prefix + "\\conda-meta\\cudatoolkit-11.2.2-h933977f_10.json"] = "{}"
    m.files[prefix + "\\conda-meta\\cudnn-8.1.0.77-h3e0f4f4_0.json"] = "{}"
    m.path()
    m.registry_path()
    cuda_result, result = run(m, windows_tf210(), exe)
    assert cuda_result.status == OK
    assert result.status == OK, codes(result)
    (install,) = result.facts["installs"]
    assert install["source"] == "conda" and install["package"] == "cudnn"
    assert install["version"] == "8.1.0.77"  # conda-meta is more precise than the header


def test_conda_env_without_cudnn_offers_the_conda_command():
    m = Machine()
    prefix = "C:\\Users\\me\\miniconda3\\envs\\tf"
    exe = m.python(prefix + "\\python.exe", prefix, conda=True, tf="2.10.0")
    _cuda112(m)
    _, result = run(m, windows_tf210(), exe)
    f = finding(result, "cudnn_missing")
    # into the chosen environment, not whichever one is active in the terminal
    assert (f'conda install -p "{prefix}" -c conda-forge cudatoolkit=11.2 cudnn=8.1.0'
            in f.fix.commands)


# ------------------------------------------------------------------------------------------
# Linux / WSL2
# ------------------------------------------------------------------------------------------


def test_linux_tf212_cudnn_in_toolkit_on_ld_library_path():
    m = Machine("linux")
    path = m.linux_toolkit("11.8", "11.8.89")
    m.cudnn_into(path, "8.6.0")
    m.env["LD_LIBRARY_PATH"] = path + "/lib64"
    target = knowledge.choose_target("linux", requested="2.12")
    _, result = run(m, target)
    assert result.status == OK, codes(result)
    (install,) = result.facts["installs"]
    assert install["version"] == "8.6.0" and install["missing"] == []


def test_linux_system_package_and_missing_sub_library():
    m = Machine("linux")
    m.files["/usr/include/x86_64-linux-gnu/cudnn_version_v8.h"] = (
        "#define CUDNN_MAJOR 8\n#define CUDNN_MINOR 6\n#define CUDNN_PATCHLEVEL 0\n")
    lib = "/usr/lib/x86_64-linux-gnu"
    for name in ("libcudnn.so.8", "libcudnn.so.8.6.0", "libcudnn_ops_infer.so.8",
                 "libcudnn_ops_train.so.8", "libcudnn_cnn_infer.so.8", "libcudnn_cnn_train.so.8",
                 "libcudnn_adv_infer.so.8"):
        m.files[f"{lib}/{name}"] = None
    target = knowledge.choose_target("linux", requested="2.12")
    _, result = run(m, target)
    assert result.status == FAIL
    f = finding(result, "cudnn_partial_install")
    assert f.params["missing"] == "libcudnn_adv_train.so.8"
    assert result.facts["installs"][0]["version"] == "8.6.0"
    assert result.facts["loader_first"]["origin"] == "default"


def _pip_env(m: Machine, cudnn: str = "9.3.0.75", tf: str = "2.18.0") -> str:
    prefix = "/home/me/venv"
    site = f"{prefix}/lib/python3.11/site-packages"
    major = cudnn.split(".")[0]
    m.files[f"{site}/nvidia/cuda_runtime/lib/libcudart.so.12"] = None
    for name in cudnn_installs.LINUX_FILES[int(major)]:
        m.files[f"{site}/nvidia/cudnn/lib/{name}"] = None
    m.files[f"{site}/nvidia/cudnn/include/cudnn_version.h"] = (
        f"#define CUDNN_MAJOR {major}\n#define CUDNN_MINOR {cudnn.split('.')[1]}\n")
    return m.python(f"{prefix}/bin/python", prefix, version="3.11.4", tf=tf,
                    packages={"nvidia-cuda-runtime-cu12": "12.5.82",
                              "nvidia-cudnn-cu12": cudnn})


def test_linux_pip_wheel_env_is_not_applicable():
    m = Machine("linux")
    exe = _pip_env(m)
    target = knowledge.choose_target("linux", installed="2.18.0", installed_where=exe)
    _, result = run(m, target, exe)
    assert result.status == NOT_APPLICABLE, codes(result)
    assert result.findings == []
    wheel = result.facts["installs"][0]
    assert wheel["source"] == "pip" and wheel["version"] == "9.3.0.75"
    assert wheel["package"] == "nvidia-cudnn-cu12" and wheel["cuda"] == "12"


def test_linux_pip_wheel_of_the_wrong_major():
    m = Machine("linux")
    exe = _pip_env(m, cudnn="8.9.7.29")
    target = knowledge.choose_target("linux", installed="2.18.0", installed_where=exe)
    _, result = run(m, target, exe)
    assert result.status == FAIL
    f = finding(result, "cudnn_version_mismatch")
    assert f.params["found"] == "8.9.7.29"
    assert "[and-cuda]" in f.fix.commands[0]


def test_linux_old_system_cudnn_on_ld_library_path_shadows_the_wheel():
    m = Machine("linux")
    exe = _pip_env(m)
    m.cudnn_into("/opt/old-cudnn", "9.0.0", lib_dir="/opt/old-cudnn/lib",
                 include_dir="/opt/old-cudnn/include")
    m.env["LD_LIBRARY_PATH"] = "/opt/old-cudnn/lib"
    target = knowledge.choose_target("linux", installed="2.18.0", installed_where=exe)
    _, result = run(m, target, exe)
    assert result.status == FAIL
    f = finding(result, "cudnn_version_mismatch")
    assert f.params["path"] == "/opt/old-cudnn/lib"
    assert f.fix.action_params["name"] == "LD_LIBRARY_PATH"


def test_linux_tf_without_wheels_is_missing_with_pip_command():
    m = Machine("linux")
    prefix = "/home/me/venv"
    exe = m.python(f"{prefix}/bin/python", prefix, version="3.11.4", tf="2.18.0")
    m.files[f"{prefix}/lib/python3.11/site-packages/tensorflow/__init__.py"] = ""
    target = knowledge.choose_target("linux", installed="2.18.0", installed_where=exe)
    _, result = run(m, target, exe)
    assert result.status == FAIL
    f = finding(result, "cudnn_missing")
    # the environment's own interpreter runs pip, never a bare pip
    command = f'"{exe}" -m pip ' + knowledge.install_command("2.18.0", "linux")[4:]
    assert f.fix.commands == (command,)
    # the pip variant of the fix summary, not "copy the files into the CUDA folder"
    assert "CUDA folder" not in f.fix_summary()
    assert f.fix_summary().endswith(": " + command)


def test_pip_target_without_environment_is_not_applicable():
    m = Machine("linux", wsl=2)
    _, result = run(m, knowledge.choose_target("wsl2"))
    assert result.status == NOT_APPLICABLE
    assert result.findings == []


def test_cudnn_copied_into_a_cuda_12_toolkit_is_probably_the_cuda_12_build():
    m = Machine()
    v123 = m.win_toolkit("12.3", "12.3.2")
    m.cudnn_into(v123, "8.9.7")
    m.files["C:\\Windows\\System32\\zlibwapi.dll"] = None
    m.path(v123 + "\\bin")
    m.registry_path(v123 + "\\bin")
    _, result = run(m, windows_tf210())
    f = finding(result, "cudnn_version_mismatch")
    assert f.severity == "warn"  # inferred from the folder it sits in
    assert "for CUDA 12.3" in str(f.evidence)
    assert result.facts["installs"][0]["cuda"] == "12.3"


def test_probe_log_duplicates_can_be_recognised_by_file():
    m = Machine()
    _cuda112(m)
    _, result = run(m, windows_tf210())
    assert finding(result, "cudnn_missing").params["file"] == "cudnn64_8.dll"


def test_a_recorded_snapshot_replays_to_the_same_facts():
    """Everything the discovery reads goes through recordable Host calls."""
    from wizard.core.host import RecordingHost, ReplayHost

    m = Machine()
    path = _cuda112(m)
    m.cudnn_into(path, "8.9.7")
    m.cudnn_into("C:\\tools\\cudnn-8.0", "8.0.5")
    m.files["C:\\Windows\\System32\\zlibwapi.dll"] = None
    m.files["C:\\Windows\\System32\\unrelated.dll"] = None
    recorder = RecordingHost.wrap(m.host())
    cuda_found = cuda_installs.discover(recorder)
    cudnn_found = cudnn_installs.discover(recorder, cuda_found)
    profile = recorder.profile()
    assert "C:\\Windows\\System32\\unrelated.dll" not in profile["files"]  # probed, not listed
    replay = ReplayHost(profile)
    cuda_again = cuda_installs.discover(replay)
    cudnn_again = cudnn_installs.discover(replay, cuda_again)
    assert cuda_again.facts() == cuda_found.facts()
    assert cudnn_again.facts(8) == cudnn_found.facts(8)


def test_cudnn_folder_only_on_the_saved_path_or_only_on_this_process_path():
    m = Machine()
    path = m.win_toolkit("11.2", "11.2.2")
    root = f"{PF}\\NVIDIA\\CUDNN\\v8.1"
    m.cudnn_into(root, "8.1.1")
    m.path(path + "\\bin")
    m.registry_path(path + "\\bin", root + "\\bin")
    _, result = run(m, windows_tf210())
    assert result.status == OK
    assert finding(result, "cudnn_missing").severity == "info"

    m.path(path + "\\bin", root + "\\bin")
    m.registry_path(path + "\\bin")
    _, result = run(m, windows_tf210())
    assert result.status == FAIL  # judged by the saved PATH: a new terminal will not find it
    assert finding(result, "cudnn_missing").fix.action_params == {
        "name": "PATH", "append": root + "\\bin"
    }


def test_linux_conda_env_needs_its_lib_on_ld_library_path_for_pip_tf():
    m = Machine("linux")
    prefix = "/home/me/miniconda3/envs/tf"
    exe = m.python(f"{prefix}/bin/python", prefix, version="3.10.12", conda=True, tf="2.12.0")
    m.files[f"{prefix}/lib/libcudart.so.11.8.89"] = None
    m.files[f"{prefix}/lib/libcudart.so.11.0"] = None
    m.cudnn_into(prefix, "8.6.0", lib_dir=f"{prefix}/lib")
    m.files[f"{prefix}/conda-meta/cudatoolkit-11.8.0-h6a678d5_0.json"] = "{}"
    m.files[f"{prefix}/conda-meta/cudnn-8.6.0.163-hdb33d9f_0.json"] = "{}"
    target = knowledge.choose_target("linux", installed="2.12.0", installed_where=exe)
    cuda_result, result = run(m, target, exe)
    assert cuda_result.status == FAIL
    assert finding(cuda_result, "cuda_not_on_path").params["dir"] == f"{prefix}/lib"
    assert finding(result, "cudnn_missing").fix.action_params == {
        "name": "LD_LIBRARY_PATH", "append": f"{prefix}/lib"
    }

    m.env["LD_LIBRARY_PATH"] = f"{prefix}/lib"
    cuda_result, result = run(m, target, exe)
    assert cuda_result.status == OK and result.status == OK, codes(result)
    assert result.facts["installs"][0]["version"] == "8.6.0.163"


def test_partial_wheel_is_reinstalled_with_pip():
    m = Machine("linux")
    exe = _pip_env(m)
    site = "/home/me/venv/lib/python3.11/site-packages"
    del m.files[f"{site}/nvidia/cudnn/lib/libcudnn_graph.so.9"]
    target = knowledge.choose_target("linux", installed="2.18.0", installed_where=exe)
    _, result = run(m, target, exe)
    assert result.status == FAIL
    f = finding(result, "cudnn_partial_install")
    assert f.params["missing"] == "libcudnn_graph.so.9"
    assert f.fix.commands == (
        f'"{exe}" -m pip install --force-reinstall nvidia-cudnn-cu12==9.3.0.75',)
    assert f.fix.action is None


# ------------------------------------------------------------------------------------------
# Archives (for the install_cudnn fix action)
# ------------------------------------------------------------------------------------------


def test_inspect_the_81_windows_zip():
    from wizard.core.cudnn_installs import inspect_archive

    members = ["cuda/", *(f"cuda/bin/{n}" for n in WINDOWS_FILES[8]),
               "cuda/include/cudnn.h", "cuda/include/cudnn_version.h",
               "cuda/lib/x64/cudnn.lib", "cuda/lib/x64/cudnn64_8.lib",
               "cuda/NVIDIA_SLA_cuDNN_Support.txt"]
    archive = inspect_archive(
        members, windows=True,
        archive_name="C:\\Users\\me\\Downloads\\cudnn-11.2-windows-x64-v8.1.1.33.zip")
    assert (archive.version, archive.major, archive.cuda) == ("8.1.1.33", 8, "11.2")
    assert archive.usable and not archive.needs_zlibwapi
    dests = dict(archive.copies)
    assert dests["cuda/bin/cudnn64_8.dll"] == "bin\\cudnn64_8.dll"
    assert dests["cuda/include/cudnn_version.h"] == "include\\cudnn_version.h"
    assert dests["cuda/lib/x64/cudnn.lib"] == "lib\\x64\\cudnn.lib"
    assert "cuda/NVIDIA_SLA_cuDNN_Support.txt" not in dests


def test_inspect_a_newer_archive_with_a_header_and_a_missing_library():
    from wizard.core.cudnn_installs import inspect_archive

    root = "cudnn-windows-x86_64-8.9.7.29_cuda11-archive"
    members = [f"{root}/bin/{n}" for n in WINDOWS_FILES[8] if "adv_train" not in n]
    members += [f"{root}/include/cudnn_version.h", f"{root}/lib/cudnn.lib", f"{root}/LICENSE"]
    archive = inspect_archive(members, windows=True, header_text=cudnn_header("8.9.7"))
    assert (archive.version, archive.cuda) == ("8.9.7", "11")
    assert archive.needs_zlibwapi
    assert archive.missing == ["cudnn_adv_train64_8.dll"] and not archive.usable
    assert dict(archive.copies)[f"{root}/lib/cudnn.lib"] == "lib\\x64\\cudnn.lib"


def test_inspect_a_linux_tar():
    from wizard.core.cudnn_installs import LINUX_FILES, inspect_archive

    root = "cudnn-linux-x86_64-9.3.0.75_cuda12-archive"
    members = [f"{root}/lib/{n}" for n in LINUX_FILES[9]]
    members += [f"{root}/lib/libcudnn.so.9.3.0", f"{root}/include/cudnn_version.h"]
    archive = inspect_archive(members, windows=False, archive_name=root + ".tar.xz")
    assert (archive.version, archive.major, archive.cuda) == ("9.3.0.75", 9, "12")
    assert archive.usable
    assert dict(archive.copies)[f"{root}/lib/libcudnn.so.9"] == "lib64/libcudnn.so.9"
