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
