"""The cuda layer and cuda_installs discovery on inline profiles (Windows, Linux, WSL2, pip
wheels, conda), replayed through ReplayHost."""

from __future__ import annotations

import json

import pytest
from cuda_profiles import (
    CUDA_REG,
    PF,
    TOOLKITS,
    Machine,
    context,
    finding,
    run,
    windows_tf210,
)

from wizard.core import cuda_installs, knowledge
from wizard.core.cuda_installs import (
    cudart_abi_of_file,
    cudart_file_name,
    parse_nvcc_version,
    parse_version_json,
    parse_version_txt,
    version_from_cudart,
)
from wizard.core.host.windows import expand_vars
from wizard.core.layers import cuda
from wizard.core.model import FAIL, NOT_APPLICABLE, OK, WARN, Target

V112 = f"{TOOLKITS}\\v11.2"


def _tf210_ok_machine() -> Machine:
    m = Machine()
    path = m.win_toolkit("11.2", "11.2.2")
    m.path(path + "\\bin", path + "\\libnvvp")
    m.registry_path(path + "\\bin", path + "\\libnvvp")
    return m


# ------------------------------------------------------------------------------------------
# Parsing helpers
# ------------------------------------------------------------------------------------------


def test_version_sources_parse():
    assert parse_version_json(json.dumps({"cuda": {"version": "11.8.20220929"}})) == "11.8.20220929"
    assert parse_version_json("not json") is None
    assert parse_version_json(json.dumps({"cuda_cudart": {"version": "12.1"}})) is None
    assert parse_version_txt("CUDA Version 11.2.67\n") == "11.2.67"
    assert parse_nvcc_version(
        "nvcc: NVIDIA (R) Cuda compiler driver\nCuda compilation tools, release 11.2, V11.2.152\n"
    ) == "11.2.152"
    assert cuda_installs.parse_cuda_h("#define CUDA_VERSION 11020\n") == "11.2"


def test_runtime_file_names_per_cuda():
    assert cudart_file_name("11.2", windows=True) == "cudart64_110.dll"
    assert cudart_file_name("11.8", windows=True) == "cudart64_110.dll"
    assert cudart_file_name("12.5", windows=True) == "cudart64_12.dll"
    assert cudart_file_name("10.1", windows=True) == "cudart64_101.dll"
    assert cudart_file_name("11.2", windows=False) == "libcudart.so.11.0"
    assert cudart_file_name("12.3", windows=False) == "libcudart.so.12"
    assert cudart_abi_of_file("cudart64_110.dll") == "11"
    assert cudart_abi_of_file("cudart64_101.dll") == "10.1"
    assert cudart_abi_of_file("CUDART64_12.DLL") == "12"
    assert cudart_abi_of_file("libcudart.so.11.8.89") == "11"
    assert cudart_abi_of_file("libcudart.so") is None
    assert version_from_cudart(["libcudart.so.11.0", "libcudart.so.11.2.72"]) == "11.2.72"
    assert version_from_cudart(["cudart64_110.dll"]) == "11"


def test_expand_vars_is_case_insensitive_and_keeps_unknown():
    variables = {"SYSTEMROOT": "C:\\Windows", "CUDA_PATH": "D:\\cuda"}
    assert expand_vars("%SystemRoot%\\system32;%cuda_path%\\bin;%NOPE%\\x", variables) == (
        "C:\\Windows\\system32;D:\\cuda\\bin;%NOPE%\\x"
    )


# ------------------------------------------------------------------------------------------
# Windows, TF 2.10 (CUDA 11.2)
# ------------------------------------------------------------------------------------------


def test_windows_cuda_112_on_path_is_ok_with_all_sources_merged():
    result, _ = run(_tf210_ok_machine(), windows_tf210())
    assert result.status == OK, result.findings
    assert result.findings == []
    (install,) = result.facts["installs"]
    assert install["version"] == "11.2.2"
    assert install["version_source"] == "version.json"
    assert set(install["sources"]) == {"folder", "CUDA_PATH", "CUDA_PATH_V11_2", "registry"}
    assert install["cudart"] == ["cudart64_110.dll"]
    assert install["on_path"] is True and install["on_new_path"] is True
    first = result.facts["loader_first"]
    assert first["file"] == "cudart64_110.dll" and first["dir"].lower() == (V112 + "\\bin").lower()
    assert result.facts["path_entries_registry"][0] == "C:\\Windows\\system32"
    assert result.facts["needed"]["file"] == "cudart64_110.dll"


def test_windows_version_txt_and_folder_name_fallbacks():
    m = Machine()
    m.win_toolkit("11.2", "11.2.67", version_file="txt", env=False)
    m.win_toolkit("10.1", version_file="none", env=False, registry=False)
    found = cuda_installs.discover(m.host())
    by_path = {i.path.lower(): i for i in found.installs}
    assert by_path[V112.lower()].version == "11.2.67"
    assert by_path[V112.lower()].version_source == "version.txt"
    v101 = by_path[f"{TOOLKITS}\\v10.1".lower()]
    assert (v101.version, v101.version_source) == ("10.1", "folder name")


def test_windows_registry_only_install_outside_program_files():
    m = Machine()
    m.win_toolkit("11.2", "11.2.2", root="D:\\CUDA\\v11.2", env=False)
    m.path("D:\\CUDA\\v11.2\\bin")
    m.registry_path("D:\\CUDA\\v11.2\\bin")
    result, _ = run(m, windows_tf210())
    assert result.status == OK
    (install,) = result.facts["installs"]
    assert install["sources"] == ["registry"]
    assert install["path"] == "D:\\CUDA\\v11.2"


def test_windows_no_cuda_at_all():
    m = Machine()
    m.path()
    m.registry_path()
    result, _ = run(m, windows_tf210())
    assert result.status == FAIL
    f = finding(result, "cuda_not_installed")
    assert f.params["cuda"] == "11.2"
    assert knowledge.cuda_download_url("11.2", "windows") in [link.url for link in f.fix.links]
    assert any(step.key == "install_cuda" for step in f.fix.steps)
    assert "11.2" in f.message()


def test_windows_stale_cuda_path_is_reported_in_the_evidence():
    m = Machine()
    m.env["CUDA_PATH"] = f"{TOOLKITS}\\v11.2"  # the folder was deleted
    m.path()
    result, _ = run(m, windows_tf210())
    f = finding(result, "cuda_not_installed")
    assert "CUDA_PATH" in f.evidence and "missing folder" in f.evidence
    assert result.facts["installs"][0]["exists"] is False


@pytest.mark.parametrize(
    ("version", "status", "severity"),
    [("11.8", WARN, "warn"), ("12.1", FAIL, "fail"), ("11.0", FAIL, "fail")],
)
def test_windows_other_cuda_instead_of_112(version, status, severity):
    m = Machine()
    path = m.win_toolkit(version)
    m.path(path + "\\bin")
    m.registry_path(path + "\\bin")
    result, _ = run(m, windows_tf210())
    assert result.status == status
    f = finding(result, "cuda_version_mismatch")
    assert f.severity == severity
    assert f.params["found"] == f"{version}.0" and f.params["cuda"] == "11.2"
    if version == "11.8":
        assert "cudart64_110.dll" in f.evidence  # why it is only a warning
    urls = [link.url for link in f.fix.links]
    assert knowledge.cuda_download_url("11.2", "windows") in urls


def test_windows_newer_minor_first_on_path_shadows_the_exact_toolkit():
    m = Machine()
    v118 = m.win_toolkit("11.8")
    v112 = m.win_toolkit("11.2", "11.2.2")
    m.path(v118 + "\\bin", v112 + "\\bin")
    m.registry_path(v118 + "\\bin", v112 + "\\bin")
    result, _ = run(m, windows_tf210())
    assert result.status == WARN
    f = finding(result, "cuda_version_mismatch")
    assert f.fix.action == "set_env"
    assert f.fix.action_params == {"name": "PATH", "prepend": v112 + "\\bin"}
    assert f.fix.steps[0].key == "move_path_entry"
    assert result.facts["loader_first"]["version"] == "11.8.0"


def test_windows_cuda_not_on_either_path():
    m = Machine()
    m.win_toolkit("11.2", "11.2.2")
    m.path()
    m.registry_path()
    result, _ = run(m, windows_tf210())
    assert result.status == FAIL
    f = finding(result, "cuda_not_on_path")
    assert f.severity == "fail"
    assert f.params["dir"] == V112 + "\\bin" and f.params["variable"] == "PATH"
    assert f.fix.action == "set_env"
    assert f.fix.action_params == {"name": "PATH", "append": V112 + "\\bin"}
    keys = [s.key for s in f.fix.steps]
    assert keys[0] == "add_to_path" and "set_env" in keys and keys[-1] == "new_terminal"
    assert result.facts["installs"][0]["on_path"] is False


def test_windows_registry_path_has_it_but_this_process_does_not():
    m = Machine()
    path = m.win_toolkit("11.2", "11.2.2")
    m.path()  # the wizard was started before the installer changed PATH
    m.registry_path("%CUDA_PATH%\\bin")  # REG_EXPAND_SZ entry, expanded like a new terminal
    result, _ = run(m, windows_tf210())
    assert result.status == OK
    f = finding(result, "cuda_not_on_path")
    assert f.severity == "info"
    assert [s.key for s in f.fix.steps] == ["new_terminal"]
    assert result.facts["loader_first_process"] is None
    assert result.facts["loader_first_new_terminal"]["dir"].lower() == (path + "\\bin").lower()


def test_windows_process_path_has_it_but_the_saved_path_does_not():
    m = Machine()
    path = m.win_toolkit("11.2", "11.2.2")
    m.path(path + "\\bin")
    m.registry_path()
    result, _ = run(m, windows_tf210())
    assert result.status == WARN
    f = finding(result, "cuda_not_on_path")
    assert f.severity == "warn"
    assert f.fix.action_params == {"name": "PATH", "append": path + "\\bin"}


def test_windows_without_registry_data_judges_by_the_process_path():
    m = Machine()
    path = m.win_toolkit("11.2", "11.2.2", registry=False)
    m.path(path + "\\bin")
    result, _ = run(m, windows_tf210())
    assert result.status == OK
    assert result.facts["path_entries_registry"] is None


def test_windows_cuda_13_runtime_lives_in_bin_x64():
    m = Machine()
    path = m.win_toolkit("13.0")
    m.path(path + "\\bin\\x64")
    target = Target("x", "13.0", "9.12", None, "test", "windows")
    result, _ = run(m, target)
    assert result.status == OK
    assert result.facts["installs"][0]["lib_dir"] == path + "\\bin\\x64"


def test_windows_tf_211_plus_is_not_applicable():
    m = _tf210_ok_machine()
    target = knowledge.choose_target("windows", installed="2.15.0")
    result, cudnn_result = run(m, target)
    assert result.status == NOT_APPLICABLE and cudnn_result.status == NOT_APPLICABLE
    assert "2.15" in result.summary_text()
    assert result.facts["installs"]  # still listed for the GUI


def test_windows_conda_env_with_cudatoolkit():
    m = Machine()
    prefix = "C:\\Users\\me\\miniconda3\\envs\\tf"
    exe = m.python(prefix + "\\python.exe", prefix, conda=True, tf="2.10.0")
    m.files[prefix + "\\Library\\bin\\cudart64_110.dll"] = None
    m.files[prefix + "\\conda-meta\\cudatoolkit-11.2.2-h933977f_10.json"] = "{}"
    m.path()
    m.registry_path()
    result, _ = run(m, windows_tf210(), exe)
    assert result.status == OK, result.findings
    conda = next(i for i in result.facts["installs"] if i["kind"] == "conda")
    assert conda["version"] == "11.2.2" and conda["package"] == "cudatoolkit"
    assert result.facts["loader_first"]["origin"] == "conda_env"


def test_windows_loose_cudart_copy_on_path_is_found():
    m = Machine()
    m.files["C:\\tools\\cuda\\bin\\cudart64_110.dll"] = None
    m.path("C:\\tools\\cuda\\bin")
    result, _ = run(m, windows_tf210())
    # Only the file name is known (every 11.x ships cudart64_110.dll): accepted.
    assert result.status == OK
    install = result.facts["installs"][0]
    assert install["kind"] == "system" and install["version"] == "11"


def test_nvcc_version_fills_a_toolkit_without_version_files():
    m = Machine("linux")
    m.files["/opt/cuda/bin/nvcc"] = None
    m.files["/opt/cuda/lib64/libcudart.so.11.0"] = None
    m.commands.append({"argv": ["/opt/cuda/bin/nvcc", "--version"], "returncode": 0,
                       "stdout": "Cuda compilation tools, release 11.8, V11.8.89\n"})
    m.path("/opt/cuda/bin")
    m.env["LD_LIBRARY_PATH"] = "/opt/cuda/lib64"
    target = knowledge.choose_target("linux", requested="2.12")
    result, _ = run(m, target)
    assert result.facts["nvcc"] == {"path": "/opt/cuda/bin/nvcc", "version": "11.8.89"}
    assert result.facts["installs"][0]["version"] == "11.8.89"
    assert result.status == OK


# ------------------------------------------------------------------------------------------
# Linux / WSL2
# ------------------------------------------------------------------------------------------


def _linux_tf212() -> Target:
    return knowledge.choose_target("linux", requested="2.12")  # CUDA 11.8, cuDNN 8.6


def test_linux_toolkit_without_ld_library_path():
    m = Machine("linux")
    m.linux_toolkit("11.8", "11.8.89")
    m.path("/usr/local/cuda-11.8/bin")
    result, _ = run(m, _linux_tf212())
    assert result.status == FAIL
    f = finding(result, "cuda_not_on_path")
    assert f.params["variable"] == "LD_LIBRARY_PATH"
    assert f.params["dir"] == "/usr/local/cuda-11.8/lib64"
    assert f.fix.action_params == {
        "name": "LD_LIBRARY_PATH", "append": "/usr/local/cuda-11.8/lib64"
    }
    assert any("ldconfig" in c for c in f.fix.commands)
    assert any("~/.bashrc" in c for c in f.fix.commands)


def test_linux_toolkit_on_ld_library_path_or_in_ld_so_conf():
    m = Machine("linux")
    m.linux_toolkit("11.8", "11.8.89")
    m.env["LD_LIBRARY_PATH"] = "/usr/local/cuda-11.8/lib64"
    result, _ = run(m, _linux_tf212())
    assert result.status == OK
    assert result.facts["loader_first"]["origin"] == "LD_LIBRARY_PATH"

    m2 = Machine("linux")
    m2.linux_toolkit("11.8", "11.8.89")
    m2.files["/etc/ld.so.conf"] = "include /etc/ld.so.conf.d/*.conf\n"
    m2.files["/etc/ld.so.conf.d/cuda-11-8.conf"] = "# cuda\n/usr/local/cuda-11.8/lib64\n"
    result2, _ = run(m2, _linux_tf212())
    assert result2.status == OK
    assert result2.facts["loader_first"]["origin"] == "ld.so.conf"


def test_linux_usr_local_cuda_symlink_is_folded_into_its_target():
    m = Machine("linux")
    m.linux_toolkit("11.8", "11.8.89")
    m.linux_toolkit("11.8", "11.8.89", root="/usr/local/cuda")
    m.env["LD_LIBRARY_PATH"] = "/usr/local/cuda/lib64"
    result, _ = run(m, _linux_tf212())
    assert result.status == OK
    (install,) = result.facts["installs"]
    assert install["path"] == "/usr/local/cuda-11.8"
    assert install["aliases"] == ["/usr/local/cuda"]


def test_linux_distro_package_in_multiarch_folder():
    m = Machine("linux")
    m.files["/usr/lib/x86_64-linux-gnu/libcudart.so.11.5.117"] = None
    m.files["/usr/lib/x86_64-linux-gnu/libcudart.so.11.0"] = None
    m.files["/usr/include/cuda_runtime_api.h"] = "#define CUDART_VERSION 11050\n"
    result, _ = run(m, _linux_tf212())
    # 11.5 < 11.8: the build needs newer 11.x symbols.
    assert result.status == FAIL
    f = finding(result, "cuda_version_mismatch")
    assert f.params["found"] == "11.5"
    assert result.facts["installs"][0]["version_source"] == "cuda_runtime_api.h"
    assert result.facts["loader_first"]["origin"] == "default"


def _linux_venv(m: Machine, *, tf="2.18.0", wheels=True, site_ver="3.11") -> str:
    prefix = "/home/me/venv"
    site = f"{prefix}/lib/python{site_ver}/site-packages"
    packages = {}
    if wheels:
        m.files[f"{site}/nvidia/cuda_runtime/lib/libcudart.so.12"] = None
        m.files[f"{site}/nvidia/cudnn/lib/libcudnn.so.9"] = None
        packages = {"nvidia-cuda-runtime-cu12": "12.5.82", "nvidia-cudnn-cu12": "9.3.0.75"}
    m.files[f"{site}/tensorflow/__init__.py"] = ""
    return m.python(f"{prefix}/bin/python", prefix, version=f"{site_ver}.4", packages=packages,
                    tf=tf)


def test_linux_pip_wheels_make_the_toolkit_not_applicable():
    m = Machine("linux")
    exe = _linux_venv(m)
    target = knowledge.choose_target("linux", installed="2.18.0", installed_where=exe)
    result, _ = run(m, target, exe)
    assert result.status == NOT_APPLICABLE
    assert result.findings == []
    wheel = next(i for i in result.facts["installs"] if i["kind"] == "pip")
    assert wheel["version"] == "12.5.82" and wheel["package"] == "nvidia-cuda-runtime-cu12"
    assert result.facts["env"]["tensorflow"] == "2.18.0"
    # TF >= 2.14 reaches the wheels through its RUNPATH.
    assert result.facts["loader_first"]["origin"] == "rpath"


def test_linux_tf_without_and_cuda_fails_with_the_pip_command():
    m = Machine("linux")
    exe = _linux_venv(m, wheels=False)
    target = knowledge.choose_target("linux", installed="2.18.0", installed_where=exe)
    result, _ = run(m, target, exe)
    assert result.status == FAIL
    f = finding(result, "cuda_not_installed")
    assert f.severity == "fail"
    command = knowledge.install_command("2.18.0", "linux")
    assert "[and-cuda]" in command
    assert f.fix.commands == (f'"{exe}" -m pip {command[4:]}',)  # this env's own Python
    assert "without [and-cuda]" in f.evidence


def test_linux_env_without_tf_is_only_informed():
    m = Machine("linux")
    exe = _linux_venv(m, wheels=False, tf=None)
    result, _ = run(m, knowledge.choose_target("linux"), exe)
    assert result.status == NOT_APPLICABLE
    assert finding(result, "cuda_not_installed").severity == "info"


def test_linux_pip_target_without_environment_is_not_applicable():
    m = Machine("linux", wsl=2)
    m.linux_toolkit("12.2")
    result, _ = run(m, knowledge.choose_target("wsl2"))
    assert result.status == NOT_APPLICABLE
    assert "tensorflow[and-cuda]" in result.summary_text()
    assert result.facts["installs"][0]["version"] == "12.2.0"


def test_linux_cu11_wheels_for_a_cuda_12_build():
    m = Machine("linux")
    prefix = "/home/me/venv"
    site = f"{prefix}/lib/python3.11/site-packages"
    m.files[f"{site}/nvidia/cuda_runtime/lib/libcudart.so.11.0"] = None
    exe = m.python(f"{prefix}/bin/python", prefix, version="3.11.4", tf="2.18.0")
    m.pythons[0]["probe"]["nvidia_packages"] = {"nvidia-cuda-runtime-cu11": "11.8.89"}
    target = knowledge.choose_target("linux", installed="2.18.0", installed_where=exe)
    result, _ = run(m, target, exe)
    assert result.status == FAIL
    f = finding(result, "cuda_version_mismatch")
    assert f.params["found"] == "11.8.89"  # the probe's nvidia_packages


def test_wheel_version_from_dist_info_when_the_probe_failed():
    m = Machine("linux")
    prefix = "/home/me/venv"
    site = f"{prefix}/lib/python3.11/site-packages"
    m.files[f"{site}/nvidia/cuda_runtime/lib/libcudart.so.11.0"] = None
    m.files[f"{site}/nvidia_cuda_runtime_cu11-11.8.89.dist-info/METADATA"] = ""
    m.files[f"{prefix}/bin/python"] = None
    m.pythons.append({"executable": f"{prefix}/bin/python", "probe": {"error": "timed out"}})
    result, _ = run(m, knowledge.choose_target("linux"), f"{prefix}/bin/python")
    f = finding(result, "cuda_version_mismatch")
    assert f.params["found"] == "11.8.89"  # read from the dist-info folder name
    assert f.severity == "info"  # TF itself was not seen in the environment
    assert result.facts["env"]["site_packages"] == [site]


def test_discovery_is_cached_for_the_cudnn_layer():
    m = _tf210_ok_machine()
    ctx = context(m, windows_tf210())
    first = cuda.discovery(ctx)
    assert cuda.discovery(ctx) is first


def test_program_files_default_when_env_is_missing():
    m = Machine()
    m.env.clear()
    m.win_toolkit("11.2", env=False, registry=False)
    found = cuda_installs.discover(m.host())
    assert [i.path for i in found.installs] == [f"{PF}\\NVIDIA GPU Computing Toolkit\\CUDA\\v11.2"]
    assert CUDA_REG.startswith("HKLM")


def test_right_toolkit_without_its_runtime_is_cudart_missing():
    m = Machine()
    path = m.win_toolkit("11.2", "11.2.2")
    del m.files[path + "\\bin\\cudart64_110.dll"]  # quarantined by an antivirus
    m.path(path + "\\bin")
    m.registry_path(path + "\\bin")
    result, _ = run(m, windows_tf210())
    assert result.status == FAIL
    assert [f.code for f in result.findings] == ["cudart_missing"]
    f = result.findings[0]
    assert f.params == {"file": "cudart64_110.dll", "cuda": "11.2", "path": path + "\\bin"}
    assert any(step.key == "install_cuda" for step in f.fix.steps)


def test_without_an_nvidia_gpu_the_findings_only_inform():
    from wizard.core.model import Finding, LayerResult

    m = Machine()
    m.path()
    ctx = context(m, windows_tf210())
    ctx.results["gpu"] = LayerResult("gpu", FAIL, "no GPU", findings=[Finding("no_nvidia_gpu")])
    result = cuda.check(ctx)
    assert result.status == NOT_APPLICABLE
    # "TensorFlow needs CUDA 11.2" is false without a GPU, and its install steps would
    # contradict the gpu layer's CPU-only advice: the summary says what was found
    assert result.findings == []
    assert result.summary_text().startswith("no NVIDIA GPU; ")


def test_older_toolkit_on_ld_library_path_shadows_the_wheel_runtime():
    m = Machine("linux")
    exe = _linux_venv(m)
    m.linux_toolkit("12.2", "12.2.140")
    m.env["LD_LIBRARY_PATH"] = "/usr/local/cuda-12.2/lib64"
    target = knowledge.choose_target("linux", installed="2.18.0", installed_where=exe)
    result, _ = run(m, target, exe)
    assert result.status == WARN
    f = finding(result, "cuda_version_mismatch")
    assert f.params["found"] == "12.2.140"
    assert f.fix.action_params == {
        "name": "LD_LIBRARY_PATH", "remove": "/usr/local/cuda-12.2/lib64"
    }
    assert result.facts["loader_first"]["origin"] == "LD_LIBRARY_PATH"


def test_pip_target_served_by_a_system_toolkit_on_the_library_path():
    m = Machine("linux")
    exe = _linux_venv(m, wheels=False, tf="2.15.0")
    m.linux_toolkit("12.2", "12.2.140")
    m.env["LD_LIBRARY_PATH"] = "/usr/local/cuda-12.2/lib64"
    target = knowledge.choose_target("linux", installed="2.15.0", installed_where=exe)
    assert target.pip_cuda and target.cuda == "12.2"
    result, _ = run(m, target, exe)
    assert result.status == OK, result.findings
    assert "/usr/local/cuda-12.2/lib64" in result.summary_text()


def test_reg_sz_path_does_not_expand_variables():
    m = Machine()
    m.win_toolkit("11.2", "11.2.2")
    m.path()
    m.registry_path("%CUDA_PATH%\\bin")
    system_env = "HKLM\\SYSTEM\\CurrentControlSet\\Control\\Session Manager\\Environment"
    m.registry[system_env]["Path"][0] = "REG_SZ"  # what a careless `setx` leaves behind
    result, _ = run(m, windows_tf210())
    assert result.status == FAIL
    f = finding(result, "cuda_not_on_path")
    assert "REG_SZ" in f.evidence and "%CUDA_PATH%\\bin" in f.evidence
    assert "%CUDA_PATH%\\bin" in result.facts["path_entries_registry"]
