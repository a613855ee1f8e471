<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN" sourcelanguage="en">
<context>
    <name>CommandRow</name>
    <message>
        <source>Copied</source>
        <translation>已复制</translation>
    </message>
    <message>
        <source>Copy</source>
        <translation>复制</translation>
    </message>
    <message>
        <source>Copy the command</source>
        <translation>复制这条命令</translation>
    </message>
    <message>
        <source>Copy to the clipboard: {command}</source>
        <translation>复制到剪贴板：{command}</translation>
    </message>
    <message>
        <source>Command</source>
        <translation>命令</translation>
    </message>
</context>
<context>
    <name>CoreText</name>
    <message>
        <source> (no /dev/nvidia* devices inside it)</source>
        <translation>（其中没有 /dev/nvidia* 设备）</translation>
    </message>
    <message>
        <source> (no NVIDIA PCI device)</source>
        <translation>（没有 NVIDIA PCI 设备）</translation>
    </message>
    <message>
        <source> (/dev/nvidia* exist, but the driver libraries were not mounted: NVIDIA_DRIVER_CAPABILITIES may lack compute,utility)</source>
        <translation>（/dev/nvidia* 存在，但驱动库没有挂载进来：NVIDIA_DRIVER_CAPABILITIES 可能缺少 compute,utility）</translation>
    </message>
    <message>
        <source> (NVML and nvidia-smi found no driver, and no display device was listed)</source>
        <translation>（NVML 和 nvidia-smi 都没有找到驱动，也没有列出任何显示设备）</translation>
    </message>
    <message>
        <source> in {installed_where}</source>
        <translation>，位于 {installed_where}</translation>
    </message>
    <message>
        <source>, and its build leaves out compute capability {cc}</source>
        <translation>，而且它的构建不包含计算能力 {cc}</translation>
    </message>
    <message>
        <source>Add your user to the group shown there (usually &apos;video&apos;; the driver&apos;s DeviceFileGID in /proc/driver/nvidia/params sets it):</source>
        <translation>把你的用户加入上面显示的用户组（通常是 &apos;video&apos;；由驱动在 /proc/driver/nvidia/params 中的 DeviceFileGID 决定）：</translation>
    </message>
    <message>
        <source>CPU build</source>
        <translation>CPU 版本</translation>
    </message>
    <message>
        <source>CUDA Toolkit {cuda}</source>
        <translation>CUDA 工具包 {cuda}</translation>
    </message>
    <message>
        <source>CUDA Toolkit {cuda} download (archive)</source>
        <translation>CUDA 工具包 {cuda} 下载（历史版本存档）</translation>
    </message>
    <message>
        <source>CUDA installation guide</source>
        <translation>CUDA 安装指南</translation>
    </message>
    <message>
        <source>CUDA {cuda}</source>
        <translation>CUDA {cuda}</translation>
    </message>
    <message>
        <source>CUDA {major}.x minor-version compatibility lowers the floor to {requirement_compat}, which this driver does not reach either.</source>
        <translation>借助 CUDA {major}.x 次版本兼容，最低要求可降到 {requirement_compat}，但这个驱动连这个版本也达不到。</translation>
    </message>
    <message>
        <source>Check the path (a venv&apos;s interpreter is bin/python, or Scripts\python.exe on Windows), or leave out --python to let the wizard find your environments.</source>
        <translation>请检查路径（venv 的解释器是 bin/python，Windows 上是 Scripts\python.exe），或者不加 --python，让本向导自己查找你的环境。</translation>
    </message>
    <message>
        <source>Choose an environment with Python {python_range} with --python, or create one (python.org, or conda create -n {name} python={version}): TensorFlow cannot run in this Python.</source>
        <translation>用 --python 选择一个 Python {python_range} 的环境，或者新建一个（python.org，或 conda create -n {name} python={version}）：TensorFlow 无法在这个 Python 中运行。</translation>
    </message>
    <message>
        <source>Create an environment with Python {ctx_target_python}.</source>
        <translation>创建一个 Python {ctx_target_python} 的环境。</translation>
    </message>
    <message>
        <source>If it persists after the restart, reinstall the driver so that the kernel module and libraries match (check: cat /proc/driver/nvidia/version).</source>
        <translation>如果重启后问题依旧，请重新安装驱动，让内核模块与库的版本一致（检查命令：cat /proc/driver/nvidia/version）。</translation>
    </message>
    <message>
        <source>If it persists, reinstall the NVIDIA driver (choose &apos;Perform a clean installation&apos;).</source>
        <translation>如果问题依旧，请重新安装 NVIDIA 显卡驱动（选择“执行清洁安装”）。</translation>
    </message>
    <message>
        <source>If the driver is installed, load it and read the error: sudo modprobe nvidia (a &apos;Key was rejected&apos; error means Secure Boot blocks the module: enroll its key with mokutil or sign it; after a kernel update check dkms status).</source>
        <translation>如果驱动已经安装，请加载它并查看报错：sudo modprobe nvidia（报错“Key was rejected”表示安全启动（Secure Boot）阻止了该模块：请用 mokutil 登记它的密钥或为模块签名；内核更新后请检查 dkms status）。</translation>
    </message>
    <message>
        <source>If this machine has an NVIDIA GPU, make sure it is enabled in the BIOS/UEFI (hybrid graphics or MUX switch settings) and seated/powered, then check again.</source>
        <translation>如果这台电脑装有 NVIDIA 显卡，请确认它已在 BIOS/UEFI 中启用（混合显卡或 MUX 切换设置），并且插好、供电正常，然后重新检查。</translation>
    </message>
    <message>
        <source>In WSL2:</source>
        <translation>在 WSL2 中：</translation>
    </message>
    <message>
        <source>In a Python 3.7-3.10 environment:</source>
        <translation>在 Python 3.7-3.10 的环境中：</translation>
    </message>
    <message>
        <source>In a Windows terminal run the commands below, then open the distro again.</source>
        <translation>在 Windows 终端中运行下面的命令，然后重新打开该发行版。</translation>
    </message>
    <message>
        <source>Install or update the NVIDIA driver on Windows (not inside WSL); it provides the GPU to WSL 2.</source>
        <translation>在 Windows 中（而不是在 WSL 里）安装或更新 NVIDIA 显卡驱动；WSL 2 通过它使用显卡。</translation>
    </message>
    <message>
        <source>Install or update the NVIDIA driver on Windows (the normal Game Ready/Studio driver includes WSL support).</source>
        <translation>在 Windows 中安装或更新 NVIDIA 显卡驱动（普通的 Game Ready/Studio 驱动已包含 WSL 支持）。</translation>
    </message>
    <message>
        <source>Install the driver from your distribution&apos;s packages (or NVIDIA&apos;s repository).</source>
        <translation>从你的发行版软件包（或 NVIDIA 的软件仓库）安装驱动。</translation>
    </message>
    <message>
        <source>It can still run through CUDA {major}.x minor-version compatibility (driver {requirement_compat} or newer), but code built for the newer CUDA (PTX compiled just in time, ptxas) may fail with &apos;unsupported PTX version&apos;; updating is recommended.</source>
        <translation>借助 CUDA {major}.x 次版本兼容（需要驱动 {requirement_compat} 或更新版本），它仍然可以运行，但为更新的 CUDA 编译的代码（即时编译的 PTX、ptxas）可能报错“unsupported PTX version”；建议更新驱动。</translation>
    </message>
    <message>
        <source>It can still run through CUDA {major}.x minor-version compatibility, but code built for the newer CUDA (PTX compiled just in time, ptxas) may fail with &apos;unsupported PTX version&apos;; updating is recommended.</source>
        <translation>借助 CUDA {major}.x 次版本兼容，它仍然可以运行，但为更新的 CUDA 编译的代码（即时编译的 PTX、ptxas）可能报错“unsupported PTX version”；建议更新驱动。</translation>
    </message>
    <message>
        <source>Kubernetes: request nvidia.com/gpu in the pod&apos;s resources (NVIDIA device plugin).</source>
        <translation>Kubernetes：在 Pod 的资源中申请 nvidia.com/gpu（需要 NVIDIA device plugin）。</translation>
    </message>
    <message>
        <source>Load it now, and make it load at boot:</source>
        <translation>现在加载它，并设置为开机自动加载：</translation>
    </message>
    <message>
        <source>Log out and in again (or restart) so the new group applies.</source>
        <translation>注销后重新登录（或重启电脑），让新的用户组生效。</translation>
    </message>
    <message>
        <source>NVIDIA CUDA on WSL user guide</source>
        <translation>NVIDIA CUDA on WSL 用户指南</translation>
    </message>
    <message>
        <source>NVIDIA Container Toolkit install guide</source>
        <translation>NVIDIA Container Toolkit 安装指南</translation>
    </message>
    <message>
        <source>NVIDIA driver downloads</source>
        <translation>NVIDIA 驱动下载</translation>
    </message>
    <message>
        <source>NVIDIA driver installation guide (Linux)</source>
        <translation>NVIDIA 驱动安装指南（Linux）</translation>
    </message>
    <message>
        <source>NVIDIA drivers</source>
        <translation>NVIDIA 驱动</translation>
    </message>
    <message>
        <source>NVIDIA: CUDA GPUs and their compute capability</source>
        <translation>NVIDIA：支持 CUDA 的显卡及其计算能力</translation>
    </message>
    <message>
        <source>NVIDIA: CUDA-capable GPUs</source>
        <translation>NVIDIA：支持 CUDA 的显卡</translation>
    </message>
    <message>
        <source>NVML did not answer within {timeout} s (the driver may be hung; restart the machine)</source>
        <translation>NVML 在 {timeout} 秒内没有响应（驱动可能已卡死；请重启电脑）</translation>
    </message>
    <message>
        <source>On Linux (not WSL2):</source>
        <translation>在 Linux 上（不是 WSL2）：</translation>
    </message>
    <message>
        <source>On Linux or WSL2:</source>
        <translation>在 Linux 或 WSL2 上：</translation>
    </message>
    <message>
        <source>On Windows:</source>
        <translation>在 Windows 上：</translation>
    </message>
    <message>
        <source>On the host: install the NVIDIA driver and the NVIDIA Container Toolkit.</source>
        <translation>在宿主机上：安装 NVIDIA 显卡驱动和 NVIDIA Container Toolkit。</translation>
    </message>
    <message>
        <source>Otherwise TensorFlow runs on the CPU only; GPU training needs a machine with a CUDA-capable NVIDIA GPU.</source>
        <translation>否则 TensorFlow 只能在 CPU 上运行；用 GPU 训练需要一台装有支持 CUDA 的 NVIDIA 显卡的电脑。</translation>
    </message>
    <message>
        <source>PyTorch: install</source>
        <translation>PyTorch：安装</translation>
    </message>
    <message>
        <source>Python {python} at {ctx_python}</source>
        <translation>Python {python}，位于 {ctx_python}</translation>
    </message>
    <message>
        <source>Remove the Linux NVIDIA driver packages from this distro (keep only a WSL cuda-toolkit without driver, if you need nvcc).</source>
        <translation>从这个发行版中删除 Linux 版 NVIDIA 驱动软件包（如果需要 nvcc，只保留不含驱动的 WSL 版 cuda-toolkit）。</translation>
    </message>
    <message>
        <source>Run &quot;{python}&quot; -c &quot;import tensorflow&quot; in a terminal to see the error, or choose another environment with --python.</source>
        <translation>请在终端中运行 &quot;{python}&quot; -c &quot;import tensorflow&quot; 查看报错，或用 --python 选择另一个环境。</translation>
    </message>
    <message>
        <source>Run &quot;{python}&quot; -c &quot;import tensorflow&quot; in a terminal to see where it hangs, then check again (a first import can be slow); or choose another environment with --python.</source>
        <translation>请在终端中运行 &quot;{python}&quot; -c &quot;import tensorflow&quot;，看它卡在哪里，然后重新检查（第一次导入可能比较慢）；或用 --python 选择另一个环境。</translation>
    </message>
    <message>
        <source>Run the check again.</source>
        <translation>请重新运行检查。</translation>
    </message>
    <message>
        <source>Run the wizard as the signed-in desktop user, not as a service or in a session without GPU access (some Remote Desktop setups).</source>
        <translation>请以已登录桌面的用户身份运行本向导，而不要作为服务运行，也不要在无法访问显卡的会话中运行（某些远程桌面环境就是这样）。</translation>
    </message>
    <message>
        <source>TensorFlow on WSL2</source>
        <translation>在 WSL2 上使用 TensorFlow</translation>
    </message>
    <message>
        <source>TensorFlow {fitting} is the newest release whose GPU build still supports it</source>
        <translation>TensorFlow {fitting} 是 GPU 版本仍支持它的最新版本</translation>
    </message>
    <message>
        <source>TensorFlow {given} is a pre-release of TF {tf_series}, which the tables do not list: this answer is that of the TF {tf_series_2} releases ({listed}).</source>
        <translation>TensorFlow {given} 是 TF {tf_series} 的预发布版本，兼容性表中没有它：这里给出的是 TF {tf_series_2} 正式版本（{listed}）的答案。</translation>
    </message>
    <message>
        <source>TensorFlow: install with pip</source>
        <translation>TensorFlow：用 pip 安装</translation>
    </message>
    <message>
        <source>The NVIDIA installer blacklists nouveau; if nouveau still loads, rebuild the initramfs and restart.</source>
        <translation>NVIDIA 安装程序会禁用 nouveau；如果 nouveau 仍然被加载，请重新生成 initramfs 并重启。</translation>
    </message>
    <message>
        <source>Then run &apos;wsl --shutdown&apos; in a Windows terminal and open the distro again.</source>
        <translation>然后在 Windows 终端中运行 &apos;wsl --shutdown&apos;，再重新打开该发行版。</translation>
    </message>
    <message>
        <source>This driver branch stops at CUDA {driver_cuda}; CUDA {major}.x needs a newer one.</source>
        <translation>这个驱动分支最高只支持 CUDA {driver_cuda}；CUDA {major}.x 需要更新的驱动。</translation>
    </message>
    <message>
        <source>Unset CUDA_VISIBLE_DEVICES or set it to 0.</source>
        <translation>删除 CUDA_VISIBLE_DEVICES，或把它设为 0。</translation>
    </message>
    <message>
        <source>Which GPU is PCI device 10DE:{device_id}?</source>
        <translation>PCI 设备 10DE:{device_id} 是哪块显卡？</translation>
    </message>
    <message>
        <source>an unknown version</source>
        <translation>未知版本</translation>
    </message>
    <message>
        <source>chosen with --python</source>
        <translation>通过 --python 指定</translation>
    </message>
    <message>
        <source>chosen with --tf</source>
        <translation>通过 --tf 指定</translation>
    </message>
    <message>
        <source>cuDNN 8.9 install guide: zlib</source>
        <translation>cuDNN 8.9 安装指南：zlib</translation>
    </message>
    <message>
        <source>cuDNN installation guide</source>
        <translation>cuDNN 安装指南</translation>
    </message>
    <message>
        <source>cuDNN {target_cudnn} download (NVIDIA, login needed)</source>
        <translation>cuDNN {target_cudnn} 下载（NVIDIA 官网，需要登录）</translation>
    </message>
    <message>
        <source>cuDNN {target_cudnn} for CUDA {target_cuda}</source>
        <translation>适用于 CUDA {target_cuda} 的 cuDNN {target_cudnn}</translation>
    </message>
    <message>
        <source>driver {driver} is loaded but lists no GPU: the card may need a different driver branch, e.g. a legacy one for an old GPU or a newer one for a new GPU</source>
        <translation>驱动 {driver} 已加载，但没有列出任何显卡：这块显卡可能需要另一个驱动分支，例如旧显卡需要旧版（legacy）驱动，新显卡需要更新的驱动</translation>
    </message>
    <message>
        <source>installed{where}</source>
        <translation>已安装{where}</translation>
    </message>
    <message>
        <source>none does: every TensorFlow GPU build in the table needs a newer GPU; use the CPU, a newer GPU, or build TensorFlow from source</source>
        <translation>没有任何版本支持：表中所有 TensorFlow GPU 版本都需要更新的显卡；请使用 CPU、更新的显卡，或从源码编译 TensorFlow</translation>
    </message>
    <message>
        <source>nvidia-modprobe is installed and normally creates it on the first CUDA call; if CUDA still fails with error 999 or &apos;cudaGetDeviceCount returned 30&apos;, load it by hand.</source>
        <translation>已安装 nvidia-modprobe，它通常会在第一次调用 CUDA 时创建该设备；如果 CUDA 仍然报错 999 或“cudaGetDeviceCount returned 30”，请手动加载。</translation>
    </message>
    <message>
        <source>printed nothing</source>
        <translation>没有任何输出</translation>
    </message>
    <message>
        <source>printed something that is not its JSON</source>
        <translation>输出的不是它应有的 JSON</translation>
    </message>
    <message>
        <source>recommended for native Windows: the last TF with GPU support there</source>
        <translation>原生 Windows 的推荐版本：那里最后一个支持 GPU 的 TF</translation>
    </message>
    <message>
        <source>recommended for {OS_NAMES_os_kind}: the newest TF, with CUDA and cuDNN from pip (tensorflow[and-cuda])</source>
        <translation>{OS_NAMES_os_kind} 的推荐版本：最新的 TF，CUDA 和 cuDNN 由 pip 安装（tensorflow[and-cuda]）</translation>
    </message>
    <message>
        <source>the Python binding nvidia-ml-py (pynvml) is not installed: {exc}</source>
        <translation>没有安装 Python 绑定 nvidia-ml-py（pynvml）：{exc}</translation>
    </message>
    <message>
        <source>the latest</source>
        <translation>最新版本</translation>
    </message>
    <message>
        <source>your framework</source>
        <translation>所需版本</translation>
    </message>
    <message>
        <source>zlib 1.2.3 DLL for x64 (winimage)</source>
        <translation>zlib 1.2.3 x64 版 DLL（winimage）</translation>
    </message>
    <message>
        <source>zlibwapi.dll (zlib123dllx64.zip)</source>
        <translation>zlibwapi.dll（zlib123dllx64.zip 中）</translation>
    </message>
</context>
<context>
    <name>DemoBanner</name>
    <message>
        <source>Demo: replaying {profile}. Nothing on this computer is checked or changed.</source>
        <translation>演示模式：正在回放 {profile}。不会检查或修改这台电脑上的任何内容。</translation>
    </message>
</context>
<context>
    <name>FactValue</name>
    <message>
        <source>NVML library not found</source>
        <translation>找不到 NVML 库</translation>
    </message>
    <message>
        <source>driver not loaded</source>
        <translation>驱动未加载</translation>
    </message>
    <message>
        <source>driver and library versions differ</source>
        <translation>驱动与库的版本不一致</translation>
    </message>
    <message>
        <source>no permission</source>
        <translation>没有权限</translation>
    </message>
    <message>
        <source>unknown error</source>
        <translation>未知错误</translation>
    </message>
    <message>
        <source>not found</source>
        <translation>未找到</translation>
    </message>
    <message>
        <source>did not answer in time</source>
        <translation>未能及时响应</translation>
    </message>
    <message>
        <source>the conda environment</source>
        <translation>conda 环境</translation>
    </message>
    <message>
        <source>the system&apos;s default folders</source>
        <translation>系统默认文件夹</translation>
    </message>
    <message>
        <source>TensorFlow&apos;s own library folders</source>
        <translation>TensorFlow 自带的库文件夹</translation>
    </message>
    <message>
        <source>install folder</source>
        <translation>安装文件夹</translation>
    </message>
    <message>
        <source>registry</source>
        <translation>注册表</translation>
    </message>
    <message>
        <source>the CUDA Toolkit folder</source>
        <translation>CUDA 工具包文件夹</translation>
    </message>
    <message>
        <source>pip package</source>
        <translation>pip 包</translation>
    </message>
    <message>
        <source>CUDA Toolkit</source>
        <translation>CUDA 工具包</translation>
    </message>
    <message>
        <source>header file</source>
        <translation>头文件</translation>
    </message>
    <message>
        <source>the GPU&apos;s chip</source>
        <translation>显卡芯片</translation>
    </message>
    <message>
        <source>the GPU data table</source>
        <translation>显卡数据表</translation>
    </message>
    <message>
        <source>NVML (the driver)</source>
        <translation>NVML（驱动）</translation>
    </message>
    <message>
        <source>PCI bus</source>
        <translation>PCI 总线</translation>
    </message>
    <message>
        <source>system Python</source>
        <translation>系统 Python</translation>
    </message>
</context>
<context>
    <name>Facts</name>
    <message>
        <source>GPUs</source>
        <translation>显卡</translation>
    </message>
    <message>
        <source>Source</source>
        <translation>信息来源</translation>
    </message>
    <message>
        <source>Other display adapters</source>
        <translation>其他显示适配器</translation>
    </message>
    <message>
        <source>NVML error</source>
        <translation>NVML 错误</translation>
    </message>
    <message>
        <source>NVML details</source>
        <translation>NVML 详细信息</translation>
    </message>
    <message>
        <source>Minimum compute capability</source>
        <translation>最低计算能力</translation>
    </message>
    <message>
        <source>Hybrid graphics</source>
        <translation>混合显卡</translation>
    </message>
    <message>
        <source>Index</source>
        <translation>编号</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <source>Compute capability</source>
        <translation>计算能力</translation>
    </message>
    <message>
        <source>Compute capability from</source>
        <translation>计算能力来源</translation>
    </message>
    <message>
        <source>Memory (GiB)</source>
        <translation>显存 (GiB)</translation>
    </message>
    <message>
        <source>Memory (bytes)</source>
        <translation>显存（字节）</translation>
    </message>
    <message>
        <source>Laptop GPU</source>
        <translation>笔记本显卡</translation>
    </message>
    <message>
        <source>UUID</source>
        <translation>UUID</translation>
    </message>
    <message>
        <source>PCI bus ID</source>
        <translation>PCI 总线 ID</translation>
    </message>
    <message>
        <source>PCI device ID</source>
        <translation>PCI 设备 ID</translation>
    </message>
    <message>
        <source>PCI driver</source>
        <translation>PCI 驱动</translation>
    </message>
    <message>
        <source>Device problem</source>
        <translation>设备问题</translation>
    </message>
    <message>
        <source>Vendor ID</source>
        <translation>厂商 ID</translation>
    </message>
    <message>
        <source>Device ID</source>
        <translation>设备 ID</translation>
    </message>
    <message>
        <source>Driver version</source>
        <translation>驱动版本</translation>
    </message>
    <message>
        <source>Highest CUDA the driver supports</source>
        <translation>驱动支持的最高 CUDA 版本</translation>
    </message>
    <message>
        <source>Minimum driver</source>
        <translation>最低驱动版本</translation>
    </message>
    <message>
        <source>nvidia-smi</source>
        <translation>nvidia-smi</translation>
    </message>
    <message>
        <source>Kernel module version</source>
        <translation>内核模块版本</translation>
    </message>
    <message>
        <source>Device files</source>
        <translation>设备文件</translation>
    </message>
    <message>
        <source>In a container</source>
        <translation>在容器中</translation>
    </message>
    <message>
        <source>Driver</source>
        <translation>驱动</translation>
    </message>
    <message>
        <source>With the CUDA Toolkit</source>
        <translation>配合 CUDA 工具包</translation>
    </message>
    <message>
        <source>With minor-version compatibility</source>
        <translation>借助次版本兼容</translation>
    </message>
    <message>
        <source>Installations found</source>
        <translation>找到的安装</translation>
    </message>
    <message>
        <source>Loaded first</source>
        <translation>优先加载的副本</translation>
    </message>
    <message>
        <source>Loaded first (this process)</source>
        <translation>优先加载的副本（当前进程）</translation>
    </message>
    <message>
        <source>Loaded first (the needed version)</source>
        <translation>优先加载的副本（所需版本）</translation>
    </message>
    <message>
        <source>Loaded first (a new terminal)</source>
        <translation>优先加载的副本（新终端）</translation>
    </message>
    <message>
        <source>Python environment</source>
        <translation>Python 环境</translation>
    </message>
    <message>
        <source>nvcc</source>
        <translation>nvcc</translation>
    </message>
    <message>
        <source>PATH entries (this process)</source>
        <translation>PATH 条目（当前进程）</translation>
    </message>
    <message>
        <source>PATH entries (registry, new terminals)</source>
        <translation>PATH 条目（注册表，新终端）</translation>
    </message>
    <message>
        <source>LD_LIBRARY_PATH</source>
        <translation>LD_LIBRARY_PATH</translation>
    </message>
    <message>
        <source>Loader folders</source>
        <translation>加载器搜索的文件夹</translation>
    </message>
    <message>
        <source>Needed</source>
        <translation>需要</translation>
    </message>
    <message>
        <source>Seen in TensorFlow&apos;s log</source>
        <translation>TensorFlow 日志中出现</translation>
    </message>
    <message>
        <source>zlibwapi.dll</source>
        <translation>zlibwapi.dll</translation>
    </message>
    <message>
        <source>Version</source>
        <translation>版本</translation>
    </message>
    <message>
        <source>Version from</source>
        <translation>版本来源</translation>
    </message>
    <message>
        <source>Path</source>
        <translation>路径</translation>
    </message>
    <message>
        <source>Kind</source>
        <translation>类型</translation>
    </message>
    <message>
        <source>Found through</source>
        <translation>发现途径</translation>
    </message>
    <message>
        <source>Also known as</source>
        <translation>别名</translation>
    </message>
    <message>
        <source>Library folder</source>
        <translation>库文件夹</translation>
    </message>
    <message>
        <source>CUDA runtime</source>
        <translation>CUDA 运行库</translation>
    </message>
    <message>
        <source>Package</source>
        <translation>软件包</translation>
    </message>
    <message>
        <source>Exists</source>
        <translation>存在</translation>
    </message>
    <message>
        <source>On the search path</source>
        <translation>在搜索路径中</translation>
    </message>
    <message>
        <source>On the search path of a new terminal</source>
        <translation>在新终端的搜索路径中</translation>
    </message>
    <message>
        <source>Found via</source>
        <translation>查找方式</translation>
    </message>
    <message>
        <source>Folder</source>
        <translation>文件夹</translation>
    </message>
    <message>
        <source>File</source>
        <translation>文件</translation>
    </message>
    <message>
        <source>Files</source>
        <translation>文件</translation>
    </message>
    <message>
        <source>Header</source>
        <translation>头文件</translation>
    </message>
    <message>
        <source>Major version</source>
        <translation>主版本</translation>
    </message>
    <message>
        <source>Missing</source>
        <translation>缺少</translation>
    </message>
    <message>
        <source>CUDA</source>
        <translation>CUDA</translation>
    </message>
    <message>
        <source>cuDNN</source>
        <translation>cuDNN</translation>
    </message>
    <message>
        <source>CUDA from pip</source>
        <translation>CUDA 来自 pip</translation>
    </message>
    <message>
        <source>Python</source>
        <translation>Python</translation>
    </message>
    <message>
        <source>Python version</source>
        <translation>Python 版本</translation>
    </message>
    <message>
        <source>Python bits</source>
        <translation>Python 位数</translation>
    </message>
    <message>
        <source>Environment type</source>
        <translation>环境类型</translation>
    </message>
    <message>
        <source>Environment folder</source>
        <translation>环境文件夹</translation>
    </message>
    <message>
        <source>Packages</source>
        <translation>软件包</translation>
    </message>
    <message>
        <source>NVIDIA pip packages</source>
        <translation>NVIDIA pip 包</translation>
    </message>
    <message>
        <source>TensorFlow version</source>
        <translation>TensorFlow 版本</translation>
    </message>
    <message>
        <source>Imports</source>
        <translation>能否导入</translation>
    </message>
    <message>
        <source>Import error</source>
        <translation>导入错误</translation>
    </message>
    <message>
        <source>Built with CUDA</source>
        <translation>带 CUDA 构建</translation>
    </message>
    <message>
        <source>Build information</source>
        <translation>构建信息</translation>
    </message>
    <message>
        <source>Matrix multiplication test</source>
        <translation>矩阵乘法测试</translation>
    </message>
    <message>
        <source>Convolution test</source>
        <translation>卷积测试</translation>
    </message>
    <message>
        <source>CUDA_VISIBLE_DEVICES</source>
        <translation>CUDA_VISIBLE_DEVICES</translation>
    </message>
    <message>
        <source>Check took (s)</source>
        <translation>检查耗时（秒）</translation>
    </message>
    <message>
        <source>Log</source>
        <translation>日志</translation>
    </message>
    <message>
        <source>Succeeded</source>
        <translation>成功</translation>
    </message>
    <message>
        <source>Device</source>
        <translation>设备</translation>
    </message>
    <message>
        <source>Device name</source>
        <translation>设备名称</translation>
    </message>
    <message>
        <source>Error</source>
        <translation>错误</translation>
    </message>
    <message>
        <source>Message</source>
        <translation>消息</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>Program</source>
        <translation>程序</translation>
    </message>
</context>
<context>
    <name>FactsView</name>
    <message>
        <source>yes</source>
        <translation>是</translation>
    </message>
    <message>
        <source>no</source>
        <translation>否</translation>
    </message>
    <message>
        <source>1 entry</source>
        <translation>1 项</translation>
    </message>
    <message>
        <source>{count} entries</source>
        <translation>{count} 项</translation>
    </message>
    <message>
        <source>Fact</source>
        <translation>项目</translation>
    </message>
    <message>
        <source>Value</source>
        <translation>值</translation>
    </message>
    <message>
        <source>Facts found</source>
        <translation>检测到的信息</translation>
    </message>
</context>
<context>
    <name>FindingCard</name>
    <message>
        <source>What to do</source>
        <translation>怎么做</translation>
    </message>
    <message>
        <source>Open: {title}</source>
        <translation>打开：{title}</translation>
    </message>
    <message>
        <source>Open in the browser: {title}</source>
        <translation>在浏览器中打开：{title}</translation>
    </message>
    <message>
        <source>Fix it…</source>
        <translation>修复…</translation>
    </message>
    <message>
        <source>Fix it: {title}</source>
        <translation>修复：{title}</translation>
    </message>
    <message>
        <source>Why: details and evidence</source>
        <translation>原因：详细信息和依据</translation>
    </message>
    <message>
        <source>Evidence</source>
        <translation>依据</translation>
    </message>
</context>
<context>
    <name>Findings</name>
    <message>
        <source>No NVIDIA GPU</source>
        <translation>没有 NVIDIA 显卡</translation>
    </message>
    <message>
        <source>No NVIDIA graphics device was found on this machine{where}.</source>
        <translation>这台电脑上没有找到 NVIDIA 显卡{where}。</translation>
    </message>
    <message>
        <source>TensorFlow can only use an NVIDIA GPU with CUDA. Use the CPU build, or run on a machine with an NVIDIA GPU.</source>
        <translation>TensorFlow 只能通过 CUDA 使用 NVIDIA 显卡。请使用 CPU 版本，或换一台装有 NVIDIA 显卡的电脑运行。</translation>
    </message>
    <message>
        <source>GPU not supported by this build</source>
        <translation>此版本不支持这块显卡</translation>
    </message>
    <message>
        <source>{gpu} has compute capability {cc}, but {framework} {version} needs at least {min_cc}{max_note}.</source>
        <translation>{gpu} 的计算能力是 {cc}，但 {framework} {version} 至少需要 {min_cc}{max_note}。</translation>
    </message>
    <message>
        <source>Use a {framework} release that supports compute capability {cc} ({advice}).</source>
        <translation>请使用支持计算能力 {cc} 的 {framework} 版本（{advice}）。</translation>
    </message>
    <message>
        <source>NVIDIA GPU without a driver</source>
        <translation>NVIDIA 显卡没有驱动</translation>
    </message>
    <message>
        <source>The NVIDIA device {gpu} is present, but no NVIDIA driver serves it{problem}.</source>
        <translation>检测到 NVIDIA 设备 {gpu}，但没有 NVIDIA 驱动为它工作{problem}。</translation>
    </message>
    <message>
        <source>Install the NVIDIA driver for {gpu} (at least {min_driver} for CUDA {cuda}), then restart.</source>
        <translation>请为 {gpu} 安装 NVIDIA 显卡驱动（CUDA {cuda} 至少需要 {min_driver}），然后重启电脑。</translation>
    </message>
    <message>
        <source>NVIDIA driver not running</source>
        <translation>NVIDIA 驱动未运行</translation>
    </message>
    <message>
        <source>The NVIDIA driver is not installed or not loaded: {detail}.</source>
        <translation>NVIDIA 显卡驱动没有安装或没有加载：{detail}。</translation>
    </message>
    <message>
        <source>Install the NVIDIA driver (at least {min_driver} for CUDA {cuda}) and restart; on Linux check that the kernel module loads (DKMS after a kernel update, nouveau blacklisted).</source>
        <translation>请安装 NVIDIA 显卡驱动（CUDA {cuda} 至少需要 {min_driver}）并重启电脑；在 Linux 上还要确认内核模块能够加载（内核更新后检查 DKMS，并禁用 nouveau）。</translation>
    </message>
    <message>
        <source>Driver too old</source>
        <translation>驱动版本过旧</translation>
    </message>
    <message>
        <source>Driver {driver} supports CUDA up to {driver_cuda}, but the target needs CUDA {cuda}, which needs driver {min_driver} or newer.</source>
        <translation>驱动 {driver} 最高支持 CUDA {driver_cuda}，但目标版本需要 CUDA {cuda}，它要求驱动 {min_driver} 或更新版本。</translation>
    </message>
    <message>
        <source>Update the NVIDIA driver to {min_driver} or newer.</source>
        <translation>请把 NVIDIA 显卡驱动更新到 {min_driver} 或更新版本。</translation>
    </message>
    <message>
        <source>Driver/library version mismatch</source>
        <translation>驱动与库的版本不一致</translation>
    </message>
    <message>
        <source>The NVIDIA user-space library and the loaded kernel module have different versions (usually after a driver update without a restart).</source>
        <translation>NVIDIA 用户态库与已加载的内核模块版本不同（通常是更新驱动后没有重启）。</translation>
    </message>
    <message>
        <source>Restart the machine; if that does not help, reinstall the driver.</source>
        <translation>请重启电脑；如果仍然不行，请重新安装驱动。</translation>
    </message>
    <message>
        <source>No permission for the GPU device</source>
        <translation>没有访问显卡设备的权限</translation>
    </message>
    <message>
        <source>This user cannot open {device}.</source>
        <translation>当前用户无法打开 {device}。</translation>
    </message>
    <message>
        <source>Add the user to the group that owns {device} (often &apos;video&apos; or &apos;render&apos;), or fix the device permissions, then log in again.</source>
        <translation>请把当前用户加入拥有 {device} 的用户组（通常是 &apos;video&apos; 或 &apos;render&apos;），或修正设备权限，然后重新登录。</translation>
    </message>
    <message>
        <source>nvidia-uvm not loaded</source>
        <translation>nvidia-uvm 未加载</translation>
    </message>
    <message>
        <source>/dev/nvidia-uvm is missing, so CUDA cannot initialise (cuInit fails).</source>
        <translation>缺少 /dev/nvidia-uvm，CUDA 无法初始化（cuInit 失败）。</translation>
    </message>
    <message>
        <source>Load the module: sudo modprobe nvidia-uvm (and make it load at boot).</source>
        <translation>加载该模块：sudo modprobe nvidia-uvm（并设置为开机自动加载）。</translation>
    </message>
    <message>
        <source>WSL sees no GPU</source>
        <translation>WSL 中看不到显卡</translation>
    </message>
    <message>
        <source>This WSL distro cannot reach the GPU: {detail}.</source>
        <translation>这个 WSL 发行版无法访问显卡：{detail}。</translation>
    </message>
    <message>
        <source>Install the NVIDIA driver on Windows (not inside WSL), use WSL 2 with a current kernel (wsl --update), and never install a Linux NVIDIA driver inside the distro.</source>
        <translation>请在 Windows 中（而不是在 WSL 里）安装 NVIDIA 显卡驱动，使用内核为最新的 WSL 2（wsl --update），并且不要在发行版内部安装 Linux 版 NVIDIA 驱动。</translation>
    </message>
    <message>
        <source>Container without GPU access</source>
        <translation>容器没有显卡访问权限</translation>
    </message>
    <message>
        <source>This looks like a container started without GPU access{detail}.</source>
        <translation>这似乎是一个启动时没有开放显卡访问的容器{detail}。</translation>
    </message>
    <message>
        <source>Start the container with GPU access (docker run --gpus all, with the NVIDIA Container Toolkit installed on the host).</source>
        <translation>请以显卡访问方式启动容器（docker run --gpus all，并在宿主机上安装 NVIDIA Container Toolkit）。</translation>
    </message>
    <message>
        <source>CUDA Toolkit not installed</source>
        <translation>未安装 CUDA 工具包</translation>
    </message>
    <message>
        <source>No CUDA {cuda} was found, and TensorFlow {tensorflow} needs it.</source>
        <translation>没有找到 CUDA {cuda}，而 TensorFlow {tensorflow} 需要它。</translation>
    </message>
    <message>
        <source>Install CUDA {cuda}: the CUDA Toolkit from NVIDIA&apos;s archive (skip its display driver if yours is newer), or on Linux/WSL2 the pip wheels of tensorflow[and-cuda]; the steps below say which.</source>
        <translation>请安装 CUDA {cuda}：可以从 NVIDIA 的历史版本存档安装 CUDA 工具包（如果你的显卡驱动更新，请跳过其中的显卡驱动），在 Linux/WSL2 上也可以用 tensorflow[and-cuda] 的 pip 包；具体用哪种，请看下面的步骤。</translation>
    </message>
    <message>
        <source>Wrong CUDA version</source>
        <translation>CUDA 版本不对</translation>
    </message>
    <message>
        <source>CUDA {found} is installed, but TensorFlow {tensorflow} needs CUDA {cuda}.</source>
        <translation>已安装 CUDA {found}，但 TensorFlow {tensorflow} 需要 CUDA {cuda}。</translation>
    </message>
    <message>
        <source>Install CUDA Toolkit {cuda} beside the other version and make it the one on PATH.</source>
        <translation>请另外安装 CUDA 工具包 {cuda}（可与现有版本并存），并让 PATH 中排在前面的是它。</translation>
    </message>
    <message>
        <source>CUDA not on the library path</source>
        <translation>CUDA 不在库搜索路径中</translation>
    </message>
    <message>
        <source>CUDA {cuda} is installed in {path}, but {dir} is not on {variable}.</source>
        <translation>CUDA {cuda} 已安装在 {path}，但 {dir} 不在 {variable} 中。</translation>
    </message>
    <message>
        <source>Add {dir} to {variable} (and set CUDA_PATH), then open a new terminal.</source>
        <translation>请把 {dir} 添加到 {variable}（并设置 CUDA_PATH），然后打开一个新的终端。</translation>
    </message>
    <message>
        <source>CUDA runtime not found</source>
        <translation>找不到 CUDA 运行库</translation>
    </message>
    <message>
        <source>The CUDA runtime {file} could not be loaded.</source>
        <translation>无法加载 CUDA 运行库 {file}。</translation>
    </message>
    <message>
        <source>Install the CUDA version that provides {file} ({cuda}) and put its library folder on the loader path.</source>
        <translation>请安装提供 {file} 的 CUDA 版本（{cuda}），并把它的库文件夹加入库搜索路径。</translation>
    </message>
    <message>
        <source>CUDA library missing</source>
        <translation>缺少 CUDA 库</translation>
    </message>
    <message>
        <source>The CUDA library {file} could not be loaded.</source>
        <translation>无法加载 CUDA 库 {file}。</translation>
    </message>
    <message>
        <source>Install the matching CUDA Toolkit ({cuda}) completely, or the pip package that provides {file}, and put its library folder on the loader path.</source>
        <translation>请完整安装匹配的 CUDA 工具包（{cuda}），或安装提供 {file} 的 pip 包，并把它的库文件夹加入库搜索路径。</translation>
    </message>
    <message>
        <source>libdevice or ptxas missing</source>
        <translation>缺少 libdevice 或 ptxas</translation>
    </message>
    <message>
        <source>XLA could not find {what}.</source>
        <translation>XLA 找不到 {what}。</translation>
    </message>
    <message>
        <source>Install the CUDA compiler parts (nvcc/ptxas, libdevice) or set XLA_FLAGS=--xla_gpu_cuda_data_dir=&lt;CUDA folder&gt;.</source>
        <translation>请安装 CUDA 的编译器组件（nvcc/ptxas、libdevice），或设置 XLA_FLAGS=--xla_gpu_cuda_data_dir=&lt;CUDA 文件夹&gt;。</translation>
    </message>
    <message>
        <source>cuDNN not found</source>
        <translation>找不到 cuDNN</translation>
    </message>
    <message>
        <source>cuDNN {cudnn} was not found{file_note}.</source>
        <translation>没有找到 cuDNN {cudnn}{file_note}。</translation>
    </message>
    <message>
        <source>Download cuDNN {cudnn} for CUDA {cuda} and copy its bin, include and lib files into the CUDA folder; if it is already installed elsewhere, put the folder that holds its libraries on the loader path.</source>
        <translation>请下载适用于 CUDA {cuda} 的 cuDNN {cudnn}，并把其中 bin、include 和 lib 文件夹里的文件复制到 CUDA 文件夹；如果它已经安装在别处，请把存放其库文件的文件夹加入库搜索路径。</translation>
    </message>
    <message>
        <source>Wrong cuDNN version</source>
        <translation>cuDNN 版本不对</translation>
    </message>
    <message>
        <source>cuDNN {found} was found{where}, but TensorFlow {tensorflow} needs cuDNN {cudnn}.</source>
        <translation>找到了 cuDNN {found}{where}，但 TensorFlow {tensorflow} 需要 cuDNN {cudnn}。</translation>
    </message>
    <message>
        <source>Install cuDNN {cudnn} for CUDA {cuda}, and remove or move older copies that come first on the loader path.</source>
        <translation>请安装适用于 CUDA {cuda} 的 cuDNN {cudnn}，并删除或移走在库搜索路径中排在前面的旧版本。</translation>
    </message>
    <message>
        <source>cuDNN incompletely installed</source>
        <translation>cuDNN 安装不完整</translation>
    </message>
    <message>
        <source>cuDNN {found} in {path} is incomplete: {missing} missing.</source>
        <translation>{path} 中的 cuDNN {found} 不完整：缺少 {missing}。</translation>
    </message>
    <message>
        <source>zlibwapi.dll missing</source>
        <translation>缺少 zlibwapi.dll</translation>
    </message>
    <message>
        <source>cuDNN {found} on Windows needs zlibwapi.dll, which was not found on PATH.</source>
        <translation>Windows 上的 cuDNN {found} 需要 zlibwapi.dll，但在 PATH 中没有找到它。</translation>
    </message>
    <message>
        <source>Install the 64-bit zlibwapi.dll into the CUDA bin folder.</source>
        <translation>请把 64 位的 zlibwapi.dll 放到 CUDA 的 bin 文件夹中。</translation>
    </message>
    <message>
        <source>TensorFlow not installed</source>
        <translation>未安装 TensorFlow</translation>
    </message>
    <message>
        <source>TensorFlow is not installed in {python}.</source>
        <translation>{python} 中没有安装 TensorFlow。</translation>
    </message>
    <message>
        <source>Install it: {command}</source>
        <translation>安装命令：{command}</translation>
    </message>
    <message>
        <source>No GPU support on native Windows</source>
        <translation>原生 Windows 上不支持 GPU</translation>
    </message>
    <message>
        <source>TensorFlow {version} has no GPU support on native Windows (the last release with it was 2.10).</source>
        <translation>TensorFlow {version} 在原生 Windows 上不支持 GPU（最后一个支持的版本是 2.10）。</translation>
    </message>
    <message>
        <source>Either install TensorFlow 2.10 in a Python 3.7-3.10 environment, or use WSL2 with the current TensorFlow.</source>
        <translation>请在 Python 3.7-3.10 的环境中安装 TensorFlow 2.10，或者在 WSL2 中使用最新的 TensorFlow。</translation>
    </message>
    <message>
        <source>CPU-only build installed</source>
        <translation>安装的是仅 CPU 版本</translation>
    </message>
    <message>
        <source>{package} {version} is a CPU-only build, so it cannot use the GPU.</source>
        <translation>{package} {version} 是仅支持 CPU 的版本，无法使用显卡。</translation>
    </message>
    <message>
        <source>Replace it with the GPU build: {command}</source>
        <translation>请换成 GPU 版本：{command}</translation>
    </message>
    <message>
        <source>Python version not supported</source>
        <translation>不支持此 Python 版本</translation>
    </message>
    <message>
        <source>Python {found} cannot run TensorFlow {tensorflow} (it needs Python {python}).</source>
        <translation>Python {found} 无法运行 TensorFlow {tensorflow}（需要 Python {python}）。</translation>
    </message>
    <message>
        <source>Create an environment with Python {python}.</source>
        <translation>请创建一个 Python {python} 的环境。</translation>
    </message>
    <message>
        <source>NumPy 2 with a TensorFlow built for NumPy 1</source>
        <translation>NumPy 2 与为 NumPy 1 构建的 TensorFlow 不兼容</translation>
    </message>
    <message>
        <source>NumPy {numpy} is installed, but TensorFlow {tensorflow} was built for NumPy 1.</source>
        <translation>已安装 NumPy {numpy}，但 TensorFlow {tensorflow} 是为 NumPy 1 构建的。</translation>
    </message>
    <message>
        <source>Install NumPy 1: pip install &quot;numpy&lt;2&quot;</source>
        <translation>请安装 NumPy 1：pip install &quot;numpy&lt;2&quot;</translation>
    </message>
    <message>
        <source>Several TensorFlow packages installed</source>
        <translation>安装了多个 TensorFlow 包</translation>
    </message>
    <message>
        <source>Several TensorFlow distributions are installed at once: {packages}.</source>
        <translation>同时安装了多个 TensorFlow 发行包：{packages}。</translation>
    </message>
    <message>
        <source>Uninstall all of them, then install only the one you need.</source>
        <translation>请把它们全部卸载，然后只安装你需要的那一个。</translation>
    </message>
    <message>
        <source>GPU memory exhausted while creating cuDNN/cuBLAS handles</source>
        <translation>创建 cuDNN/cuBLAS 句柄时显存不足</translation>
    </message>
    <message>
        <source>cuDNN or cuBLAS could not initialise, almost always because GPU memory is taken.</source>
        <translation>cuDNN 或 cuBLAS 无法初始化，几乎总是因为显存已被占用。</translation>
    </message>
    <message>
        <source>Enable memory growth (TF_FORCE_GPU_ALLOW_GROWTH=true), close other programs using the GPU, or use a smaller batch.</source>
        <translation>请开启显存按需增长（TF_FORCE_GPU_ALLOW_GROWTH=true），关闭其他占用显卡的程序，或减小批大小（batch size）。</translation>
    </message>
    <message>
        <source>Operation not supported</source>
        <translation>操作不受支持</translation>
    </message>
    <message>
        <source>The GPU reported &apos;operation not supported&apos; (usually cudaMallocAsync on a laptop or virtual GPU).</source>
        <translation>显卡报告“operation not supported”（通常是笔记本或虚拟显卡上的 cudaMallocAsync 引起的）。</translation>
    </message>
    <message>
        <source>Use the default allocator (unset TF_GPU_ALLOCATOR=cuda_malloc_async; for ComfyUI --disable-cuda-malloc).</source>
        <translation>请使用默认的显存分配器（取消 TF_GPU_ALLOCATOR=cuda_malloc_async；ComfyUI 请加 --disable-cuda-malloc）。</translation>
    </message>
    <message>
        <source>CUDA_VISIBLE_DEVICES hides the GPU</source>
        <translation>CUDA_VISIBLE_DEVICES 隐藏了显卡</translation>
    </message>
    <message>
        <source>CUDA_VISIBLE_DEVICES={value} hides every GPU or is malformed.</source>
        <translation>CUDA_VISIBLE_DEVICES={value} 隐藏了所有显卡，或者格式有误。</translation>
    </message>
    <message>
        <source>Unset CUDA_VISIBLE_DEVICES or set it to GPU indices such as 0 or 0,1.</source>
        <translation>请删除 CUDA_VISIBLE_DEVICES，或把它设为显卡编号，例如 0 或 0,1。</translation>
    </message>
    <message>
        <source>A DLL dependency is missing</source>
        <translation>缺少 DLL 依赖</translation>
    </message>
    <message>
        <source>{file} or one of its dependencies could not be loaded.</source>
        <translation>无法加载 {file} 或它依赖的某个文件。</translation>
    </message>
    <message>
        <source>Install the latest Microsoft Visual C++ Redistributable (x64), then restart.</source>
        <translation>请安装最新的 Microsoft Visual C++ 可再发行组件（x64），然后重启电脑。</translation>
    </message>
    <message>
        <source>Only harmless messages</source>
        <translation>只有无害的提示信息</translation>
    </message>
    <message>
        <source>The log only holds harmless messages (NUMA, TensorRT, CPU instructions, cuBLAS factory).</source>
        <translation>日志中只有无害的提示信息（NUMA、TensorRT、CPU 指令集、cuBLAS factory）。</translation>
    </message>
    <message>
        <source>Nothing to fix for these lines.</source>
        <translation>这些信息无需处理。</translation>
    </message>
    <message>
        <source>Check could not run</source>
        <translation>检查无法运行</translation>
    </message>
    <message>
        <source>This check could not run: {error}.</source>
        <translation>这项检查无法运行：{error}。</translation>
    </message>
    <message>
        <source>Report this as a bug with the output of gpu-wizard check --markdown.</source>
        <translation>请把它作为程序错误报告给我们，并附上 gpu-wizard check --markdown 的输出。</translation>
    </message>
    <message>
        <source>Environment probe failed</source>
        <translation>环境探测失败</translation>
    </message>
    <message>
        <source>The Python environment {python} could not be checked: {error}</source>
        <translation>无法检查 Python 环境 {python}：{error}</translation>
    </message>
    <message>
        <source>The NVIDIA driver is loaded but does not answer: {what}.</source>
        <translation>NVIDIA 驱动已加载，但没有响应：{what}。</translation>
    </message>
    <message>
        <source>Restart the machine: the driver for {gpu} does not answer (hung, often after a GPU error; the kernel log names it as an Xid). If it happens again, reinstall the driver and check the GPU&apos;s power and cooling.</source>
        <translation>请重启电脑：{gpu} 的驱动没有响应（已挂起，通常发生在 GPU 出错之后；内核日志中会记为 Xid 错误）。如果再次发生，请重新安装驱动，并检查显卡的供电和散热。</translation>
    </message>
    <message>
        <source>Install cuDNN {cudnn} as a pip wheel, with the CUDA wheels TensorFlow needs: {command}</source>
        <translation>以 pip 包的形式安装 cuDNN {cudnn}，连同 TensorFlow 需要的 CUDA 包：{command}</translation>
    </message>
    <message>
        <source>cuDNN {cudnn} is installed in {path}, but the loader does not search that folder: add it to {variable}, then open a new terminal.</source>
        <translation>cuDNN {cudnn} 已安装在 {path}，但加载器不会在该文件夹中查找：请将它加入 {variable}，然后打开一个新的终端。</translation>
    </message>
    <message>
        <source>Download cuDNN {cudnn} for your CUDA version and copy its bin, include and lib files into the CUDA folder.</source>
        <translation>请下载适用于你的 CUDA 版本的 cuDNN {cudnn}，并把其中 bin、include 和 lib 文件夹里的文件复制到 CUDA 文件夹。</translation>
    </message>
    <message>
        <source>Download the cuDNN version your TensorFlow needs and copy its bin, include and lib files into the CUDA folder.</source>
        <translation>请下载你的 TensorFlow 所需版本的 cuDNN，并把其中 bin、include 和 lib 文件夹里的文件复制到 CUDA 文件夹。</translation>
    </message>
    <message>
        <source>Run {python} -c &quot;import tensorflow&quot; in a terminal to see the error, or choose another environment with --python.</source>
        <translation>请在终端中运行 {python} -c &quot;import tensorflow&quot; 查看报错，或用 --python 选择另一个环境。</translation>
    </message>
    <message>
        <source>32-bit Python</source>
        <translation>32 位 Python</translation>
    </message>
    <message>
        <source>Copy every file from the cuDNN archive&apos;s folders again (bin, include and lib on Windows; include and lib on Linux).</source>
        <translation>重新复制 cuDNN 压缩包各文件夹中的全部文件（Windows 上是 bin、include 和 lib；Linux 上是 include 和 lib）。</translation>
    </message>
    <message>
        <source>{next_step}</source>
        <translation>{next_step}</translation>
    </message>
    <message>
        <source>{python} is a 32-bit Python {version}; TensorFlow needs a 64-bit Python.</source>
        <translation>{python} 是 32 位的 Python {version}；TensorFlow 需要 64 位 Python。</translation>
    </message>
    <message>
        <source>Install a 64-bit Python {python_range} and create the environment with it.</source>
        <translation>请安装 64 位的 Python {python_range}，并用它创建环境。</translation>
    </message>
    <message>
        <source>Computation on the GPU failed</source>
        <translation>在显卡上计算失败</translation>
    </message>
    <message>
        <source>TensorFlow lists the GPU, but the {step} on {device} failed: {error}</source>
        <translation>TensorFlow 能列出显卡，但在 {device} 上执行 {step} 失败：{error}</translation>
    </message>
    <message>
        <source>Read the error above; the log of the check shows what the loader printed before it.</source>
        <translation>请阅读上面的报错；检查日志中有加载器在此之前输出的内容。</translation>
    </message>
    <message>
        <source>{gpu} has compute capability {cc}, but this {framework} build needs at least {min_cc}.</source>
        <translation>{gpu} 的计算能力是 {cc}，但这个 {framework} 版本至少需要 {min_cc}。</translation>
    </message>
    <message>
        <source>{gpu} with compute capability {cc} is not supported by the installed {framework} build.</source>
        <translation>已安装的 {framework} 版本不支持计算能力为 {cc} 的 {gpu}。</translation>
    </message>
    <message>
        <source>The installed build has no GPU code for this GPU&apos;s compute capability (the GPU is too old or too new for it).</source>
        <translation>已安装的版本没有针对这块显卡计算能力的 GPU 代码（显卡对它来说太旧或太新）。</translation>
    </message>
    <message>
        <source>Use a {framework} release that supports compute capability {cc}.</source>
        <translation>请使用支持计算能力 {cc} 的 {framework} 版本。</translation>
    </message>
    <message>
        <source>Use a release built for your GPU&apos;s compute capability: a newer build for a new GPU, an older one (or a source build) for an old GPU.</source>
        <translation>请使用为你的显卡计算能力构建的版本：新显卡用更新的版本，旧显卡用更早的版本（或从源码构建）。</translation>
    </message>
    <message>
        <source>The NVIDIA driver is not installed or not loaded.</source>
        <translation>NVIDIA 显卡驱动没有安装或没有加载。</translation>
    </message>
    <message>
        <source>Install the NVIDIA driver and restart; on Linux check that the kernel module loads (DKMS after a kernel update, nouveau blacklisted).</source>
        <translation>请安装 NVIDIA 显卡驱动并重启电脑；在 Linux 上还要确认内核模块能够加载（内核更新后检查 DKMS，并禁用 nouveau）。</translation>
    </message>
    <message>
        <source>The NVIDIA driver supports CUDA up to {driver_cuda}, but the program needs CUDA {cuda}.</source>
        <translation>NVIDIA 显卡驱动最高支持 CUDA {driver_cuda}，但程序需要 CUDA {cuda}。</translation>
    </message>
    <message>
        <source>The NVIDIA driver supports only CUDA up to {driver_cuda}, older than the program needs.</source>
        <translation>NVIDIA 显卡驱动最高只支持 CUDA {driver_cuda}，比程序需要的版本旧。</translation>
    </message>
    <message>
        <source>The NVIDIA driver is older than the CUDA {cuda} this program was built with.</source>
        <translation>NVIDIA 显卡驱动比构建该程序所用的 CUDA {cuda} 旧。</translation>
    </message>
    <message>
        <source>The NVIDIA driver is older than the CUDA version this program was built with.</source>
        <translation>NVIDIA 显卡驱动比构建该程序所用的 CUDA 版本旧。</translation>
    </message>
    <message>
        <source>Update the NVIDIA driver to one that supports CUDA {cuda}.</source>
        <translation>请把 NVIDIA 显卡驱动更新到支持 CUDA {cuda} 的版本。</translation>
    </message>
    <message>
        <source>Update the NVIDIA driver (or install a build of the program made for an older CUDA).</source>
        <translation>请更新 NVIDIA 显卡驱动（或安装为更旧 CUDA 构建的程序版本）。</translation>
    </message>
    <message>
        <source>This user cannot open the NVIDIA devices (/dev/nvidia*).</source>
        <translation>当前用户无法打开 NVIDIA 设备（/dev/nvidia*）。</translation>
    </message>
    <message>
        <source>This WSL distro cannot reach the GPU.</source>
        <translation>这个 WSL 发行版无法访问显卡。</translation>
    </message>
    <message>
        <source>This looks like a container started without GPU access.</source>
        <translation>这似乎是一个启动时没有开放显卡访问的容器。</translation>
    </message>
    <message>
        <source>The CUDA runtime library (cudart) could not be loaded.</source>
        <translation>无法加载 CUDA 运行库（cudart）。</translation>
    </message>
    <message>
        <source>Install the CUDA version that provides {file} and put its library folder on the loader path.</source>
        <translation>请安装提供 {file} 的 CUDA 版本，并把它的库文件夹加入库搜索路径。</translation>
    </message>
    <message>
        <source>Install the CUDA runtime this build needs (on Linux/WSL2: pip install &quot;tensorflow[and-cuda]&quot;; on Windows the CUDA Toolkit from the TensorFlow table) and put its library folder on the loader path.</source>
        <translation>请安装这个版本需要的 CUDA 运行库（Linux/WSL2 上：pip install &quot;tensorflow[and-cuda]&quot;；Windows 上：按 TensorFlow 版本对照表安装 CUDA 工具包），并把它的库文件夹加入库搜索路径。</translation>
    </message>
    <message>
        <source>A CUDA library (cuBLAS, cuFFT, cuSOLVER, ...) could not be loaded.</source>
        <translation>无法加载某个 CUDA 库（cuBLAS、cuFFT、cuSOLVER 等）。</translation>
    </message>
    <message>
        <source>Install the matching CUDA Toolkit completely, or the pip package that provides {file}, and put its library folder on the loader path.</source>
        <translation>请完整安装匹配的 CUDA 工具包，或安装提供 {file} 的 pip 包，并把它的库文件夹加入库搜索路径。</translation>
    </message>
    <message>
        <source>Install the matching CUDA Toolkit completely and put its library folder on the loader path.</source>
        <translation>请完整安装匹配的 CUDA 工具包，并把它的库文件夹加入库搜索路径。</translation>
    </message>
    <message>
        <source>XLA could not find libdevice or ptxas.</source>
        <translation>XLA 找不到 libdevice 或 ptxas。</translation>
    </message>
    <message>
        <source>cuDNN {cudnn} was not found: {file} could not be loaded.</source>
        <translation>没有找到 cuDNN {cudnn}：无法加载 {file}。</translation>
    </message>
    <message>
        <source>cuDNN was not found: {file} could not be loaded.</source>
        <translation>没有找到 cuDNN：无法加载 {file}。</translation>
    </message>
    <message>
        <source>cuDNN {cudnn} was not found.</source>
        <translation>没有找到 cuDNN {cudnn}。</translation>
    </message>
    <message>
        <source>cuDNN was not found by the loader.</source>
        <translation>加载器没有找到 cuDNN。</translation>
    </message>
    <message>
        <source>Install cuDNN {cudnn} for your CUDA version: copy the include and lib files of NVIDIA&apos;s tar archive into {cuda_folder}/include and {cuda_folder}/lib64, or install it as a pip wheel (nvidia-cudnn-cu11 or nvidia-cudnn-cu12) and put the wheel&apos;s lib folder on LD_LIBRARY_PATH.</source>
        <translation>为你的 CUDA 版本安装 cuDNN {cudnn}：把 NVIDIA tar 压缩包中的 include 和 lib 文件复制到 {cuda_folder}/include 和 {cuda_folder}/lib64，或者以 pip wheel 安装（nvidia-cudnn-cu11 或 nvidia-cudnn-cu12），并把该 wheel 的 lib 文件夹加入 LD_LIBRARY_PATH。</translation>
    </message>
    <message>
        <source>Install the cuDNN version your TensorFlow needs: copy the include and lib files of NVIDIA&apos;s tar archive into {cuda_folder}/include and {cuda_folder}/lib64, or install it as a pip wheel (nvidia-cudnn-cu11 or nvidia-cudnn-cu12) and put the wheel&apos;s lib folder on LD_LIBRARY_PATH.</source>
        <translation>安装你的 TensorFlow 所需的 cuDNN 版本：把 NVIDIA tar 压缩包中的 include 和 lib 文件复制到 {cuda_folder}/include 和 {cuda_folder}/lib64，或者以 pip wheel 安装（nvidia-cudnn-cu11 或 nvidia-cudnn-cu12），并把该 wheel 的 lib 文件夹加入 LD_LIBRARY_PATH。</translation>
    </message>
    <message>
        <source>cuDNN {found} was loaded, but this build was compiled with cuDNN {expected}.</source>
        <translation>加载的是 cuDNN {found}，但这个版本是用 cuDNN {expected} 编译的。</translation>
    </message>
    <message>
        <source>cuDNN {found} was loaded, but this build needs a different cuDNN version.</source>
        <translation>加载的是 cuDNN {found}，但这个版本需要另一个 cuDNN 版本。</translation>
    </message>
    <message>
        <source>The cuDNN that was loaded is not the version this build needs.</source>
        <translation>加载的 cuDNN 不是这个版本所需要的。</translation>
    </message>
    <message>
        <source>Install cuDNN {expected} (same major version, equal or newer minor), and remove or move older copies that come first on the loader path.</source>
        <translation>请安装 cuDNN {expected}（主版本相同，次版本相同或更新），并删除或移走在库搜索路径中排在前面的旧版本。</translation>
    </message>
    <message>
        <source>Install the cuDNN version this build needs, and remove or move older copies that come first on the loader path.</source>
        <translation>请安装这个版本需要的 cuDNN，并删除或移走在库搜索路径中排在前面的旧版本。</translation>
    </message>
    <message>
        <source>cuDNN is incompletely installed: {file} could not be loaded.</source>
        <translation>cuDNN 安装不完整：无法加载 {file}。</translation>
    </message>
    <message>
        <source>cuDNN is incompletely installed.</source>
        <translation>cuDNN 安装不完整。</translation>
    </message>
    <message>
        <source>cuDNN on Windows (8.3-8.9) needs zlibwapi.dll, which could not be loaded.</source>
        <translation>Windows 上的 cuDNN（8.3-8.9）需要 zlibwapi.dll，但无法加载它。</translation>
    </message>
    <message>
        <source>TensorFlow 2.11 and later have no GPU support on native Windows (the last release with it was 2.10).</source>
        <translation>TensorFlow 2.11 及更新版本在原生 Windows 上不支持 GPU（最后一个支持的版本是 2.10）。</translation>
    </message>
    <message>
        <source>{package} is a CPU-only build, so it cannot use the GPU.</source>
        <translation>{package} 是仅支持 CPU 的版本，无法使用显卡。</translation>
    </message>
    <message>
        <source>A CPU-only build is installed, so it cannot use the GPU.</source>
        <translation>安装的是仅支持 CPU 的版本，无法使用显卡。</translation>
    </message>
    <message>
        <source>Uninstall the CPU-only {package} and install its GPU build (PyTorch: the CUDA wheel from pytorch.org; TensorFlow on Linux/WSL2: pip install &quot;tensorflow[and-cuda]&quot;).</source>
        <translation>请卸载仅支持 CPU 的 {package}，改装它的 GPU 版本（PyTorch：从 pytorch.org 安装 CUDA 版 wheel；Linux/WSL2 上的 TensorFlow：pip install &quot;tensorflow[and-cuda]&quot;）。</translation>
    </message>
    <message>
        <source>Python {found} cannot run TensorFlow {tensorflow}.</source>
        <translation>Python {found} 无法运行 TensorFlow {tensorflow}。</translation>
    </message>
    <message>
        <source>pip found no TensorFlow build for this Python (its version is not supported, or it is a 32-bit Python).</source>
        <translation>pip 找不到适用于这个 Python 的 TensorFlow（它的版本不受支持，或者是 32 位 Python）。</translation>
    </message>
    <message>
        <source>Create a 64-bit environment with a Python version the TensorFlow release supports (see gpu-wizard compat).</source>
        <translation>请用该 TensorFlow 版本支持的 Python 版本创建一个 64 位环境（参见 gpu-wizard compat）。</translation>
    </message>
    <message>
        <source>NumPy {numpy} is installed, but this TensorFlow (or another compiled package) was built for NumPy 1.</source>
        <translation>已安装 NumPy {numpy}，但这个 TensorFlow（或其他编译过的包）是为 NumPy 1 构建的。</translation>
    </message>
    <message>
        <source>CUDA_VISIBLE_DEVICES hides every GPU or names one that does not exist.</source>
        <translation>CUDA_VISIBLE_DEVICES 隐藏了所有显卡，或者指定了不存在的显卡。</translation>
    </message>
    <message>
        <source>A DLL or one of its dependencies could not be loaded.</source>
        <translation>无法加载某个 DLL 或它依赖的文件。</translation>
    </message>
</context>
<context>
    <name>IntroPage</name>
    <message>
        <source>Native Windows. TensorFlow 2.10 is the last release that uses the GPU here; newer releases need WSL2 (run this wizard inside your WSL2 distribution).</source>
        <translation>原生 Windows。TensorFlow 2.10 是在这里能使用 GPU 的最后一个版本；更新的版本需要 WSL2（请在你的 WSL2 发行版中运行本向导）。</translation>
    </message>
    <message>
        <source>WSL2 (Linux inside Windows). The GPU driver is the Windows one; never install a Linux display driver inside WSL2.</source>
        <translation>WSL2（Windows 中的 Linux）。显卡驱动用的是 Windows 的驱动；切勿在 WSL2 中安装 Linux 显卡驱动。</translation>
    </message>
    <message>
        <source>Linux. pip can install CUDA and cuDNN together with TensorFlow.</source>
        <translation>Linux。pip 可以把 CUDA 和 cuDNN 与 TensorFlow 一起安装。</translation>
    </message>
    <message>
        <source>TensorFlow {version} (recommended)</source>
        <translation>TensorFlow {version}（推荐）</translation>
    </message>
    <message>
        <source>TensorFlow {version}</source>
        <translation>TensorFlow {version}</translation>
    </message>
    <message>
        <source>The version installed in the checked environment</source>
        <translation>所检查环境中已安装的版本</translation>
    </message>
    <message>
        <source>The wizard aims for the TensorFlow already installed in the Python environment it checks; without one, for the recommended version.</source>
        <translation>本向导以所检查的 Python 环境中已安装的 TensorFlow 为目标；如果没有安装，则以推荐版本为目标。</translation>
    </message>
    <message>
        <source>Recommended: the last TensorFlow with GPU support on native Windows.</source>
        <translation>推荐：原生 Windows 上最后一个支持 GPU 的 TensorFlow。</translation>
    </message>
    <message>
        <source>Recommended: the newest TensorFlow.</source>
        <translation>推荐：最新的 TensorFlow。</translation>
    </message>
    <message>
        <source>Needs Python {python}. pip installs CUDA and cuDNN with it (tensorflow[and-cuda]); no CUDA Toolkit is needed.</source>
        <translation>需要 Python {python}。pip 会一并安装 CUDA 和 cuDNN（tensorflow[and-cuda]），无需安装 CUDA 工具包。</translation>
    </message>
    <message>
        <source>Needs CUDA {cuda}, cuDNN {cudnn} and Python {python}.</source>
        <translation>需要 CUDA {cuda}、cuDNN {cudnn} 和 Python {python}。</translation>
    </message>
    <message>
        <source>Welcome to the GPU Setup Wizard</source>
        <translation>欢迎使用 GPU 配置向导</translation>
    </message>
    <message>
        <source>Get TensorFlow onto your NVIDIA GPU.</source>
        <translation>让 TensorFlow 用上你的 NVIDIA 显卡。</translation>
    </message>
    <message>
        <source>is there an NVIDIA GPU, and which one</source>
        <translation>有没有 NVIDIA 显卡，是哪一块</translation>
    </message>
    <message>
        <source>is the driver running and new enough</source>
        <translation>驱动是否在运行，版本是否够新</translation>
    </message>
    <message>
        <source>the CUDA version TensorFlow needs</source>
        <translation>TensorFlow 需要的 CUDA 版本</translation>
    </message>
    <message>
        <source>the matching cuDNN, complete and found</source>
        <translation>匹配的 cuDNN，是否完整、能否被找到</translation>
    </message>
    <message>
        <source>your Python environments, and whether TensorFlow really computes on the GPU</source>
        <translation>你的 Python 环境，以及 TensorFlow 是否真的在显卡上计算</translation>
    </message>
    <message>
        <source>The wizard checks the chain TensorFlow needs, from the bottom up, one page per layer:</source>
        <translation>本向导自底向上检查 TensorFlow 所依赖的每一层，每层一页：</translation>
    </message>
    <message>
        <source>Each problem comes with what to do about it.</source>
        <translation>发现的每个问题都会附上解决办法。</translation>
    </message>
    <message>
        <source>Settings</source>
        <translation>设置</translation>
    </message>
    <message>
        <source>&amp;Language:</source>
        <translation>语言(&amp;L)：</translation>
    </message>
    <message>
        <source>Language</source>
        <translation>语言</translation>
    </message>
    <message>
        <source>This computer:</source>
        <translation>这台电脑：</translation>
    </message>
    <message>
        <source>&amp;Target TensorFlow:</source>
        <translation>目标 TensorFlow(&amp;T)：</translation>
    </message>
    <message>
        <source>Target TensorFlow version</source>
        <translation>目标 TensorFlow 版本</translation>
    </message>
    <message>
        <source>The checks only read: nothing on this computer is changed.</source>
        <translation>检查只读取信息：不会修改这台电脑上的任何内容。</translation>
    </message>
</context>
<context>
    <name>LayerPage</name>
    <message>
        <source>The check could not finish. The details are below.</source>
        <translation>检查未能完成，详细信息见下方。</translation>
    </message>
    <message>
        <source>The check was stopped. Press &quot;Check again&quot; to run it.</source>
        <translation>检查已停止。点击“重新检查”再次运行。</translation>
    </message>
    <message>
        <source>Checked against TensorFlow {tf}: Python {python}; CUDA {cuda} and cuDNN {cudnn} come from pip (tensorflow[and-cuda]), no system CUDA Toolkit is needed.</source>
        <translation>按 TensorFlow {tf} 的要求检查：Python {python}；CUDA {cuda} 和 cuDNN {cudnn} 由 pip 安装（tensorflow[and-cuda]），不需要系统级的 CUDA 工具包。</translation>
    </message>
    <message>
        <source>Checked against TensorFlow {tf}: CUDA {cuda}, cuDNN {cudnn}, Python {python}.</source>
        <translation>按 TensorFlow {tf} 的要求检查：CUDA {cuda}、cuDNN {cudnn}、Python {python}。</translation>
    </message>
    <message>
        <source>Check &amp;again</source>
        <translation>重新检查(&amp;A)</translation>
    </message>
    <message>
        <source>Check {layer} again</source>
        <translation>重新检查{layer}</translation>
    </message>
    <message>
        <source>What was found</source>
        <translation>检查结果</translation>
    </message>
    <message>
        <source>Details</source>
        <translation>详细信息</translation>
    </message>
    <message>
        <source>No problems found on this layer.</source>
        <translation>这一层没有发现问题。</translation>
    </message>
    <message>
        <source>This layer cannot pass while the {layer} layer fails: fix that layer first, then check this one again.</source>
        <translation>{layer} 层未通过时，这一层也无法通过：请先修复那一层，然后再检查这一层。</translation>
    </message>
    <message>
        <source>The check did not pass, and no single cause could be named. The details below show what was seen.</source>
        <translation>检查未通过，但无法确定具体原因。下面的详细信息列出了检测到的内容。</translation>
    </message>
    <message>
        <source>Result</source>
        <translation>结果</translation>
    </message>
    <message>
        <source>Is there an NVIDIA GPU, which one, and can TensorFlow use it?</source>
        <translation>有没有 NVIDIA 显卡？是哪一块？TensorFlow 能否使用它？</translation>
    </message>
    <message>
        <source>Is the NVIDIA driver installed and running, and is it new enough for the target?</source>
        <translation>NVIDIA 显卡驱动是否已安装并在运行？版本是否满足目标要求？</translation>
    </message>
    <message>
        <source>Is the CUDA version the target needs installed where TensorFlow looks?</source>
        <translation>目标所需的 CUDA 版本是否安装在 TensorFlow 能找到的位置？</translation>
    </message>
    <message>
        <source>Is the matching cuDNN installed, complete, and found by the loader?</source>
        <translation>匹配的 cuDNN 是否已安装、是否完整、能否被加载器找到？</translation>
    </message>
    <message>
        <source>Which Python environments are there, and does TensorFlow in the chosen one see and use the GPU?</source>
        <translation>有哪些 Python 环境？所选环境中的 TensorFlow 能否识别并使用显卡？</translation>
    </message>
</context>
<context>
    <name>Layers</name>
    <message>
        <source>GPU</source>
        <translation>显卡</translation>
    </message>
    <message>
        <source>Driver</source>
        <translation>显卡驱动</translation>
    </message>
    <message>
        <source>CUDA Toolkit</source>
        <translation>CUDA 工具包</translation>
    </message>
    <message>
        <source>cuDNN</source>
        <translation>cuDNN</translation>
    </message>
    <message>
        <source>TensorFlow</source>
        <translation>TensorFlow</translation>
    </message>
    <message>
        <source>PyTorch</source>
        <translation>PyTorch</translation>
    </message>
</context>
<context>
    <name>ProgressArea</name>
    <message>
        <source>Finding the Python environment and asking it about TensorFlow…</source>
        <translation>正在查找 Python 环境并检查其中的 TensorFlow…</translation>
    </message>
    <message>
        <source>Looking for Python environments…</source>
        <translation>正在查找 Python 环境…</translation>
    </message>
    <message>
        <source>Done</source>
        <translation>完成</translation>
    </message>
    <message>
        <source>Checking: {layer}…</source>
        <translation>正在检查：{layer}…</translation>
    </message>
    <message>
        <source>Working…</source>
        <translation>正在处理…</translation>
    </message>
    <message>
        <source>Stop</source>
        <translation>停止</translation>
    </message>
    <message>
        <source>Stop the running check</source>
        <translation>停止正在进行的检查</translation>
    </message>
    <message>
        <source>Progress</source>
        <translation>进度</translation>
    </message>
</context>
<context>
    <name>QWizard</name>
    <message>
        <source>&lt; &amp;Back</source>
        <translation>&lt; 上一步(&amp;B)</translation>
    </message>
    <message>
        <source>&amp;Next &gt;</source>
        <translation>下一步(&amp;N) &gt;</translation>
    </message>
    <message>
        <source>&amp;Next</source>
        <translation>下一步(&amp;N)</translation>
    </message>
    <message>
        <source>&amp;Finish</source>
        <translation>完成(&amp;F)</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>帮助(&amp;H)</translation>
    </message>
    <message>
        <source>Commit</source>
        <translation>提交</translation>
    </message>
    <message>
        <source>Go Back</source>
        <translation>上一步</translation>
    </message>
    <message>
        <source>Continue</source>
        <translation>继续</translation>
    </message>
    <message>
        <source>Done</source>
        <translation>完成</translation>
    </message>
    <message>
        <source>Help</source>
        <translation>帮助</translation>
    </message>
</context>
<context>
    <name>SetupWizard</name>
    <message>
        <source>GPU Setup Wizard — Demo: replaying {profile}</source>
        <translation>GPU 配置向导 — 演示：正在回放 {profile}</translation>
    </message>
    <message>
        <source>GPU Setup Wizard</source>
        <translation>GPU 配置向导</translation>
    </message>
</context>
<context>
    <name>Status</name>
    <message>
        <source>OK</source>
        <translation>正常</translation>
    </message>
    <message>
        <source>Warning</source>
        <translation>警告</translation>
    </message>
    <message>
        <source>Problem</source>
        <translation>有问题</translation>
    </message>
    <message>
        <source>Unknown</source>
        <translation>未知</translation>
    </message>
    <message>
        <source>Not needed</source>
        <translation>不需要</translation>
    </message>
    <message>
        <source>Note</source>
        <translation>提示</translation>
    </message>
</context>
<context>
    <name>StatusBadge</name>
    <message>
        <source>Checking…</source>
        <translation>正在检查…</translation>
    </message>
</context>
<context>
    <name>Steps</name>
    <message>
        <source>Run: {command}</source>
        <translation>运行：{command}</translation>
    </message>
    <message>
        <source>Download {what} from {url}</source>
        <translation>下载 {what}：{url}</translation>
    </message>
    <message>
        <source>Restart the computer.</source>
        <translation>重启电脑。</translation>
    </message>
    <message>
        <source>Open a new terminal so it sees the changed environment.</source>
        <translation>打开一个新的终端，让它读取修改后的环境变量。</translation>
    </message>
    <message>
        <source>Set {name} to {value}</source>
        <translation>把 {name} 设为 {value}</translation>
    </message>
    <message>
        <source>Add {dir} to {variable}</source>
        <translation>把 {dir} 添加到 {variable}</translation>
    </message>
    <message>
        <source>Install NVIDIA driver {min_driver} or newer for {gpu}.</source>
        <translation>为 {gpu} 安装 NVIDIA 显卡驱动 {min_driver} 或更新版本。</translation>
    </message>
    <message>
        <source>Install CUDA Toolkit {cuda}; in the installer choose Custom and untick the display driver if yours is newer.</source>
        <translation>安装 CUDA 工具包 {cuda}；在安装程序中选择“自定义”，如果你的显卡驱动更新，请取消勾选其中的显卡驱动组件。</translation>
    </message>
    <message>
        <source>Copy cuDNN&apos;s bin, include and lib files into {dest}.</source>
        <translation>把 cuDNN 的 bin、include 和 lib 文件复制到 {dest}。</translation>
    </message>
    <message>
        <source>Move {dir} before {other} in {variable}, or remove {other} from it.</source>
        <translation>在 {variable} 中把 {dir} 移到 {other} 之前，或者把 {other} 从中删除。</translation>
    </message>
    <message>
        <source>Copy {files} from the cuDNN {version} archive into {dir}.</source>
        <translation>把 cuDNN {version} 压缩包中的 {files} 复制到 {dir}。</translation>
    </message>
    <message>
        <source>Or, instead, in this conda environment: {command}</source>
        <translation>或者改为在这个 conda 环境中运行：{command}</translation>
    </message>
    <message>
        <source>{text}</source>
        <translation>{text}</translation>
    </message>
</context>
<context>
    <name>Summary</name>
    <message>
        <source>{name}, compute capability {cc}</source>
        <translation>{name}，计算能力 {cc}</translation>
    </message>
    <message>
        <source>, {memory} GiB</source>
        <translation>，显存 {memory} GiB</translation>
    </message>
    <message>
        <source>Driver {driver}</source>
        <translation>驱动 {driver}</translation>
    </message>
    <message>
        <source>, supports CUDA up to {cuda}</source>
        <translation>，最高支持 CUDA {cuda}</translation>
    </message>
    <message>
        <source>; CUDA {cuda} needs {driver} or newer</source>
        <translation>；CUDA {cuda} 需要 {driver} 或更新版本</translation>
    </message>
    <message>
        <source>No system {name} needed: {name} {version} comes from the pip package {package}</source>
        <translation>不需要系统级 {name}：{name} {version} 来自 pip 包 {package}</translation>
    </message>
    <message>
        <source>No system {name} needed: {name} {version} comes from conda</source>
        <translation>不需要系统级 {name}：{name} {version} 来自 conda</translation>
    </message>
    <message>
        <source>{name} {version} in {path}</source>
        <translation>{name} {version}，位于 {path}</translation>
    </message>
    <message>
        <source>TensorFlow {version} fails to import</source>
        <translation>TensorFlow {version} 无法导入</translation>
    </message>
    <message>
        <source>TensorFlow {version} runs on {gpu}</source>
        <translation>TensorFlow {version} 在 {gpu} 上运行</translation>
    </message>
    <message>
        <source>TensorFlow {version} is a CPU-only build: it cannot use a GPU</source>
        <translation>TensorFlow {version} 是仅支持 CPU 的版本：无法使用显卡</translation>
    </message>
    <message>
        <source>TensorFlow {version} lists the GPU but a computation failed</source>
        <translation>TensorFlow {version} 能识别显卡，但有一项计算失败</translation>
    </message>
    <message>
        <source>TensorFlow {version} sees no GPU: this machine has none</source>
        <translation>TensorFlow {version} 没有识别到显卡：这台电脑没有 NVIDIA 显卡</translation>
    </message>
    <message>
        <source>TensorFlow {version} sees no GPU; fix the {layer} layer first</source>
        <translation>TensorFlow {version} 没有识别到显卡；请先修复 {layer} 层</translation>
    </message>
    <message>
        <source>TensorFlow {version} sees no GPU</source>
        <translation>TensorFlow {version} 没有识别到显卡</translation>
    </message>
    <message>
        <source> (Python {python})</source>
        <translation>（Python {python}）</translation>
    </message>
    <message>
        <source>Not needed for this target</source>
        <translation>当前目标不需要</translation>
    </message>
    <message>
        <source>No GPU visible here; the driver layer says why</source>
        <translation>这里看不到显卡；原因见“显卡驱动”这一层</translation>
    </message>
</context>
<context>
    <name>SummaryPage</name>
    <message>
        <source>Putting the results together…</source>
        <translation>正在汇总检查结果…</translation>
    </message>
    <message>
        <source>The check could not finish.</source>
        <translation>检查未能完成。</translation>
    </message>
    <message>
        <source>The check was stopped before it finished.</source>
        <translation>检查在完成前被停止了。</translation>
    </message>
    <message>
        <source>Ready: TensorFlow {tf} sees your GPU and computes on it.</source>
        <translation>已就绪：TensorFlow {tf} 能识别你的显卡，并在显卡上计算。</translation>
    </message>
    <message>
        <source>Not ready: this computer has no NVIDIA GPU, so TensorFlow can only use the CPU here.</source>
        <translation>尚未就绪：这台电脑没有 NVIDIA 显卡，因此 TensorFlow 在这里只能使用 CPU。</translation>
    </message>
    <message>
        <source>Not ready: TensorFlow {tf} has no GPU support on native Windows. See below for the two ways out.</source>
        <translation>尚未就绪：TensorFlow {tf} 在原生 Windows 上不支持 GPU。下面列出了两种解决办法。</translation>
    </message>
    <message>
        <source>Not ready yet. Start with the {layer} layer: fix what is listed below, then check again.</source>
        <translation>尚未就绪。请从“{layer}”这一层开始：按下面列出的内容修复，然后重新检查。</translation>
    </message>
    <message>
        <source>Not ready yet: TensorFlow did not run on the GPU. See the warnings below.</source>
        <translation>尚未就绪：TensorFlow 没有在显卡上运行。请查看下面的警告。</translation>
    </message>
    <message>
        <source>no Python environment with TensorFlow</source>
        <translation>没有装有 TensorFlow 的 Python 环境</translation>
    </message>
    <message>
        <source>the recommended version, preselected on the first page</source>
        <translation>推荐版本，在第一页预先选中</translation>
    </message>
    <message>
        <source>chosen on the first page</source>
        <translation>在第一页选择</translation>
    </message>
    <message>
        <source>Target: TensorFlow {tf} ({reason}). Checked environment: {env}</source>
        <translation>目标：TensorFlow {tf}（{reason}）。所检查的环境：{env}</translation>
    </message>
    <message>
        <source>Copied as Markdown: paste it into a bug report.</source>
        <translation>已复制为 Markdown：可以粘贴到问题报告中。</translation>
    </message>
    <message>
        <source>Save the report</source>
        <translation>保存报告</translation>
    </message>
    <message>
        <source>JSON report (*.json)</source>
        <translation>JSON 报告 (*.json)</translation>
    </message>
    <message>
        <source>Could not save {path}: {error}</source>
        <translation>无法保存 {path}：{error}</translation>
    </message>
    <message>
        <source>Saved {path}</source>
        <translation>已保存 {path}</translation>
    </message>
    <message>
        <source>Summary</source>
        <translation>总结</translation>
    </message>
    <message>
        <source>The whole chain at a glance, and what to do first.</source>
        <translation>整条依赖链一览，以及首先要做什么。</translation>
    </message>
    <message>
        <source>The chain, bottom up</source>
        <translation>依赖链（自底向上）</translation>
    </message>
    <message>
        <source>Layer</source>
        <translation>层</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>Found</source>
        <translation>检测结果</translation>
    </message>
    <message>
        <source>Results per layer</source>
        <translation>各层的检查结果</translation>
    </message>
    <message>
        <source>&amp;Open this layer</source>
        <translation>打开这一层(&amp;O)</translation>
    </message>
    <message>
        <source>Open the selected layer&apos;s page</source>
        <translation>打开所选层的页面</translation>
    </message>
    <message>
        <source>What to do first</source>
        <translation>首先要做的事</translation>
    </message>
    <message>
        <source>Report</source>
        <translation>报告</translation>
    </message>
    <message>
        <source>&amp;Copy as Markdown</source>
        <translation>复制为 Markdown(&amp;C)</translation>
    </message>
    <message>
        <source>Copy the report as Markdown</source>
        <translation>把报告复制为 Markdown</translation>
    </message>
    <message>
        <source>&amp;Save as JSON…</source>
        <translation>保存为 JSON(&amp;S)…</translation>
    </message>
    <message>
        <source>Save the report as a JSON file</source>
        <translation>把报告保存为 JSON 文件</translation>
    </message>
</context>
<context>
    <name>TensorFlowPage</name>
    <message>
        <source>cannot be used</source>
        <translation>无法使用</translation>
    </message>
    <message>
        <source>installed (not checked yet)</source>
        <translation>已安装（尚未检查）</translation>
    </message>
    <message>
        <source>not checked yet</source>
        <translation>尚未检查</translation>
    </message>
    <message>
        <source>could not be checked</source>
        <translation>无法检查</translation>
    </message>
    <message>
        <source>not installed</source>
        <translation>未安装</translation>
    </message>
    <message>
        <source>{path}  (checked)</source>
        <translation>{path}（已检查）</translation>
    </message>
    <message>
        <source>No Python environment was found. Install Python (3.9 or newer) or create an environment, then press &quot;Check again&quot;.</source>
        <translation>没有找到 Python 环境。请安装 Python（3.9 或更新版本）或创建一个环境，然后点击“重新检查”。</translation>
    </message>
    <message numerus="yes">
        <source>Found %n Python environment(s). The one in bold was checked; choose another and press &quot;Check this environment&quot;.</source>
        <translation>
            <numerusform>找到 %n 个 Python 环境。已检查的是粗体显示的那个；要检查其他环境，请选中它并点击“检查这个环境”。</numerusform>
        </translation>
    </message>
    <message>
        <source>Python environments</source>
        <translation>Python 环境</translation>
    </message>
    <message>
        <source>Python</source>
        <translation>Python</translation>
    </message>
    <message>
        <source>Version</source>
        <translation>版本</translation>
    </message>
    <message>
        <source>TensorFlow</source>
        <translation>TensorFlow</translation>
    </message>
    <message>
        <source>Kind</source>
        <translation>类型</translation>
    </message>
    <message>
        <source>Python environments found</source>
        <translation>找到的 Python 环境</translation>
    </message>
    <message>
        <source>Check this &amp;environment</source>
        <translation>检查这个环境(&amp;E)</translation>
    </message>
    <message>
        <source>Check the selected Python environment</source>
        <translation>检查所选的 Python 环境</translation>
    </message>
    <message>
        <source>The environments appear here after the check.</source>
        <translation>检查完成后，环境会显示在这里。</translation>
    </message>
</context>
</TS>
