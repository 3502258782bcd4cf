#pragma once
// kernel-tidy API model of luisa/runtime/rhi/command.h (opaque command classes).
#include <luisa/runtime/rhi/resource.h>

namespace luisa::compute {

class Command {
public:
    virtual ~Command() noexcept = default;
};
class ShaderDispatchCommandBase : public Command {};
class ShaderDispatchCommand : public ShaderDispatchCommandBase {};
class BufferUploadCommand : public Command {};
class BufferDownloadCommand : public Command {};
class BufferCopyCommand : public Command {};
class BufferToTextureCopyCommand : public Command {};
class TextureUploadCommand : public Command {};
class TextureDownloadCommand : public Command {};
class TextureCopyCommand : public Command {};
class TextureToBufferCopyCommand : public Command {};
class BindlessArrayUpdateCommand : public Command {};
class CustomCommand : public Command {};

enum struct StreamTag : uint8_t { GRAPHICS, COMPUTE, COPY, CUSTOM };

}// namespace luisa::compute
