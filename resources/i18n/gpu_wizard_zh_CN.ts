<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN" sourcelanguage="en">
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
        <source>No CUDA Toolkit was found, and TensorFlow {tensorflow} needs CUDA {cuda}.</source>
        <translation>没有找到 CUDA 工具包，而 TensorFlow {tensorflow} 需要 CUDA {cuda}。</translation>
    </message>
    <message>
        <source>Install CUDA Toolkit {cuda} (skip its display-driver component if your driver is newer).</source>
        <translation>请安装 CUDA 工具包 {cuda}（如果你的显卡驱动更新，请跳过其中的显卡驱动组件）。</translation>
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
        <source>Download cuDNN {cudnn} for CUDA {cuda} and copy its bin, include and lib files into the CUDA folder (the wizard can do this from the zip).</source>
        <translation>请下载适用于 CUDA {cuda} 的 cuDNN {cudnn}，并把其中 bin、include 和 lib 文件夹里的文件复制到 CUDA 文件夹（本向导可以直接从 zip 压缩包完成复制）。</translation>
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
        <source>Copy every file from the cuDNN archive&apos;s bin, include and lib folders again.</source>
        <translation>请把 cuDNN 压缩包中 bin、include 和 lib 文件夹里的所有文件重新复制一遍。</translation>
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
    <name>Steps</name>
    <message>
        <source>Run: {command}</source>
        <translation>运行：{command}</translation>
    </message>
    <message>
        <source>Download {what} from {url}</source>
        <translation>从 {url} 下载 {what}</translation>
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
        <source>{text}</source>
        <translation>{text}</translation>
    </message>
</context>
</TS>
