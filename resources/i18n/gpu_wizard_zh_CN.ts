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
        <source>Inherited environment</source>
        <translation>继承的环境变量</translation>
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
