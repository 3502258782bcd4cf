// Scalar and vector operations of one lane, with the results a CUDA GPU gives where C++
// leaves them undefined (integer overflow wraps, shifts past the width, float to integer
// conversions saturate).
#include "Values.h"

#include <simt/Simt.h>

#include <luisa/core/magic_enum.h>

#include <cmath>
#include <limits>
#include <type_traits>

namespace kernel_tidy::simt {
namespace {

template <typename T> T load(const std::byte *P) {
  T V;
  std::memcpy(&V, P, sizeof(T));
  return V;
}
template <typename T> void store(std::byte *P, T V) { std::memcpy(P, &V, sizeof(T)); }

template <typename T>
constexpr bool IsFloat = std::is_same_v<T, float> || std::is_same_v<T, _Float16>;
template <typename T>
constexpr bool IsInteger = std::is_same_v<T, int32_t> || std::is_same_v<T, uint32_t>;

template <typename Fn> decltype(auto) visitScalar(Scalar K, Fn &&F) {
  switch (K) {
  case Scalar::Bool:
    return F(bool{});
  case Scalar::Int:
    return F(int32_t{});
  case Scalar::Uint:
    return F(uint32_t{});
  case Scalar::Float:
    return F(float{});
  case Scalar::Half:
    return F(_Float16{});
  }
  __builtin_unreachable();
}

// Float to integer conversions saturate and map NaN to 0, as cvt.rzi.sat does.
template <typename To, typename From> To convert(From V) {
  if constexpr (std::is_same_v<To, bool>) {
    return V != From(0);
  } else if constexpr (IsInteger<To> && IsFloat<From>) {
    float F = static_cast<float>(V);
    if (F != F)
      return 0;
    if (F <= static_cast<float>(std::numeric_limits<To>::min()))
      return std::numeric_limits<To>::min();
    if (F >= static_cast<float>(std::numeric_limits<To>::max()))
      return std::numeric_limits<To>::max();
    return static_cast<To>(F);
  } else {
    return static_cast<To>(V);
  }
}

template <typename To> To loadAs(Scalar K, const std::byte *P) {
  return visitScalar(K, [&](auto Tag) -> To { return convert<To>(load<decltype(Tag)>(P)); });
}
template <typename From> void storeAs(Scalar K, std::byte *P, From V) {
  visitScalar(K, [&](auto Tag) {
    using T = decltype(Tag);
    store<T>(P, convert<T>(V));
  });
}

Scalar common(Scalar A, Scalar B) {
  if (A == B)
    return A;
  if (A == Scalar::Float || B == Scalar::Float)
    return Scalar::Float;
  if (A == Scalar::Half || B == Scalar::Half)
    return Scalar::Half;
  if (A == Scalar::Uint || B == Scalar::Uint)
    return Scalar::Uint;
  return Scalar::Int;
}

const std::byte *component(const Shape &S, const std::byte *P, unsigned I) {
  return P + (S.Components == 1 ? 0 : I) * S.ElementSize;
}

template <typename T> T wrapping(BinaryOp Op, T A, T B) {
  using U = std::make_unsigned_t<T>;
  switch (Op) {
  case BinaryOp::ADD:
    return static_cast<T>(static_cast<U>(A) + static_cast<U>(B));
  case BinaryOp::SUB:
    return static_cast<T>(static_cast<U>(A) - static_cast<U>(B));
  case BinaryOp::MUL:
    return static_cast<T>(static_cast<U>(A) * static_cast<U>(B));
  default:
    __builtin_unreachable();
  }
}

template <typename T> T arithmetic(BinaryOp Op, T A, T B) {
  if constexpr (std::is_same_v<T, bool>) {
    switch (Op) {
    case BinaryOp::BIT_AND:
    case BinaryOp::AND:
      return A && B;
    case BinaryOp::BIT_OR:
    case BinaryOp::OR:
      return A || B;
    case BinaryOp::BIT_XOR:
      return A != B;
    default:
      throw Unsupported("binary operator " + std::string(luisa::to_string(Op)) + " on bool");
    }
  } else if constexpr (IsFloat<T>) {
    switch (Op) {
    case BinaryOp::ADD:
      return A + B;
    case BinaryOp::SUB:
      return A - B;
    case BinaryOp::MUL:
      return A * B;
    case BinaryOp::DIV:
      return A / B;
    default:
      throw Unsupported("binary operator " + std::string(luisa::to_string(Op)) + " on floats");
    }
  } else {
    switch (Op) {
    case BinaryOp::ADD:
    case BinaryOp::SUB:
    case BinaryOp::MUL:
      return wrapping(Op, A, B);
    // Division by zero gives all ones as PTX's div does; INT_MIN / -1 wraps.
    case BinaryOp::DIV:
      if (B == 0)
        return static_cast<T>(~0u);
      if (std::is_signed_v<T> && B == T(-1))
        return wrapping(BinaryOp::SUB, T(0), A);
      return A / B;
    case BinaryOp::MOD:
      if (B == 0)
        return A;
      if (std::is_signed_v<T> && B == T(-1))
        return 0;
      return A % B;
    case BinaryOp::BIT_AND:
      return A & B;
    case BinaryOp::BIT_OR:
      return A | B;
    case BinaryOp::BIT_XOR:
      return A ^ B;
    // PTX clamps shift amounts at the width.
    case BinaryOp::SHL:
      return static_cast<uint32_t>(B) >= 32
                 ? T(0)
                 : static_cast<T>(static_cast<uint32_t>(A) << static_cast<uint32_t>(B));
    case BinaryOp::SHR:
      if (static_cast<uint32_t>(B) >= 32)
        return std::is_signed_v<T> && A < 0 ? T(-1) : T(0);
      return A >> static_cast<uint32_t>(B);
    case BinaryOp::AND:
      return A && B;
    case BinaryOp::OR:
      return A || B;
    default:
      __builtin_unreachable();
    }
  }
}

template <typename T> bool relation(BinaryOp Op, T A, T B) {
  switch (Op) {
  case BinaryOp::LESS:
    return A < B;
  case BinaryOp::GREATER:
    return A > B;
  case BinaryOp::LESS_EQUAL:
    return A <= B;
  case BinaryOp::GREATER_EQUAL:
    return A >= B;
  case BinaryOp::EQUAL:
    return A == B;
  case BinaryOp::NOT_EQUAL:
    return A != B;
  default:
    __builtin_unreachable();
  }
}

template <typename T> T minMax(bool IsMax, T A, T B) {
  if constexpr (IsFloat<T>) {
    float R = IsMax ? std::fmax(static_cast<float>(A), static_cast<float>(B))
                    : std::fmin(static_cast<float>(A), static_cast<float>(B));
    return static_cast<T>(R);
  } else {
    return IsMax ? (A < B ? B : A) : (B < A ? B : A);
  }
}

uint32_t reverseBits(uint32_t X) {
  uint32_t R = 0;
  for (int I = 0; I < 32; ++I, X >>= 1)
    R = (R << 1) | (X & 1u);
  return R;
}

// The float builtins of one argument, computed in float (half results are rounded once).
bool floatUnary(CallOp Op, float X, float &R) {
  switch (Op) {
  case CallOp::SIN:
    R = std::sin(X);
    break;
  case CallOp::COS:
    R = std::cos(X);
    break;
  case CallOp::TAN:
    R = std::tan(X);
    break;
  case CallOp::ASIN:
    R = std::asin(X);
    break;
  case CallOp::ACOS:
    R = std::acos(X);
    break;
  case CallOp::ATAN:
    R = std::atan(X);
    break;
  case CallOp::SINH:
    R = std::sinh(X);
    break;
  case CallOp::COSH:
    R = std::cosh(X);
    break;
  case CallOp::TANH:
    R = std::tanh(X);
    break;
  case CallOp::ASINH:
    R = std::asinh(X);
    break;
  case CallOp::ACOSH:
    R = std::acosh(X);
    break;
  case CallOp::ATANH:
    R = std::atanh(X);
    break;
  case CallOp::EXP:
    R = std::exp(X);
    break;
  case CallOp::EXP2:
    R = std::exp2(X);
    break;
  case CallOp::EXP10:
    R = std::pow(10.0f, X);
    break;
  case CallOp::LOG:
    R = std::log(X);
    break;
  case CallOp::LOG2:
    R = std::log2(X);
    break;
  case CallOp::LOG10:
    R = std::log10(X);
    break;
  case CallOp::SQRT:
    R = std::sqrt(X);
    break;
  case CallOp::RSQRT:
    R = 1.0f / std::sqrt(X);
    break;
  case CallOp::CEIL:
    R = std::ceil(X);
    break;
  case CallOp::FLOOR:
    R = std::floor(X);
    break;
  case CallOp::FRACT:
    R = X - std::floor(X);
    break;
  case CallOp::TRUNC:
    R = std::trunc(X);
    break;
  case CallOp::ROUND:
    R = std::round(X);
    break;
  case CallOp::SATURATE:
    R = std::fmin(std::fmax(X, 0.0f), 1.0f);
    break;
  default:
    return false;
  }
  return true;
}

bool floatBinary(CallOp Op, float X, float Y, float &R) {
  switch (Op) {
  case CallOp::POW:
    R = std::pow(X, Y);
    break;
  case CallOp::ATAN2:
    R = std::atan2(X, Y);
    break;
  case CallOp::COPYSIGN:
    R = std::copysign(X, Y);
    break;
  // step(edge, x): x < edge ? 0 : 1
  case CallOp::STEP:
    R = Y < X ? 0.0f : 1.0f;
    break;
  default:
    return false;
  }
  return true;
}

bool isVectorMaker(CallOp Op) {
  auto V = luisa::to_underlying(Op);
  return (V >= luisa::to_underlying(CallOp::MAKE_BOOL2) &&
          V <= luisa::to_underlying(CallOp::MAKE_FLOAT4)) ||
         (V >= luisa::to_underlying(CallOp::MAKE_HALF2) &&
          V <= luisa::to_underlying(CallOp::MAKE_HALF4));
}

} // namespace

namespace {

/// What shapeOf computes for one type, and whether it has a shape at all.
struct ShapeEntry {
  const Type *T = nullptr;
  bool HasShape = false;
  Shape S{};
};

ShapeEntry computeShape(const Type *T) {
  const Type *E = T->is_vector() ? T->element() : T;
  ShapeEntry Entry;
  Entry.T = T;
  Entry.HasShape =
      E->is_bool() || E->is_int32() || E->is_uint32() || E->is_float32() || E->is_float16();
  if (!Entry.HasShape)
    return Entry;
  Scalar K = E->is_bool()      ? Scalar::Bool
             : E->is_int32()   ? Scalar::Int
             : E->is_uint32()  ? Scalar::Uint
             : E->is_float32() ? Scalar::Float
                               : Scalar::Half;
  Entry.S = {K, T->is_vector() ? T->dimension() : 1u, E->size()};
  return Entry;
}

/// The shape of \p T, looked up in a small direct-mapped cache: every operation of
/// every lane asks, and LuisaCompute's types are interned for the program's lifetime
/// (one pointer per type), while asking a Type is a call into its library.
const ShapeEntry &cachedShape(const Type *T) {
  thread_local ShapeEntry Cache[64];
  ShapeEntry &Slot = Cache[(reinterpret_cast<uintptr_t>(T) >> 4) % 64];
  if (Slot.T != T)
    Slot = computeShape(T);
  return Slot;
}

} // namespace

bool hasShape(const Type *T) { return T != nullptr && cachedShape(T).HasShape; }

Shape shapeOf(const Type *T) {
  if (!hasShape(T))
    throw Unsupported("type " + typeName(T));
  return cachedShape(T).S;
}

std::string typeName(const Type *T) {
  return T ? std::string(T->description()) : std::string("void");
}

size_t memberOffset(const Type *Structure, unsigned Index) {
  size_t Offset = 0;
  auto Members = Structure->members();
  for (unsigned I = 0;; ++I) {
    size_t Align = Members[I]->alignment();
    Offset = (Offset + Align - 1) / Align * Align;
    if (I == Index)
      return Offset;
    Offset += Members[I]->size();
  }
}

uint64_t loadIndex(const Type *T, const std::byte *P) {
  Shape S = shapeOf(T);
  if (S.Components != 1 || S.Kind == Scalar::Float || S.Kind == Scalar::Half)
    throw Unsupported("index of type " + typeName(T));
  if (S.Kind == Scalar::Int)
    return static_cast<uint64_t>(static_cast<int64_t>(load<int32_t>(P)));
  return loadAs<uint32_t>(S.Kind, P);
}

bool loadCondition(const Type *T, const std::byte *P) {
  Shape S = shapeOf(T);
  if (S.Components != 1)
    throw Unsupported("condition of type " + typeName(T));
  return loadAs<bool>(S.Kind, P);
}

void unaryOp(UnaryOp Op, const Type *Result, const Type *Operand, const std::byte *In,
             std::byte *Out) {
  Shape S = shapeOf(Operand), R = shapeOf(Result);
  visitScalar(S.Kind, [&](auto Tag) {
    using T = decltype(Tag);
    for (unsigned I = 0; I < R.Components; ++I) {
      T X = load<T>(component(S, In, I));
      std::byte *O = Out + I * R.ElementSize;
      switch (Op) {
      case UnaryOp::PLUS:
        storeAs(R.Kind, O, X);
        break;
      case UnaryOp::MINUS:
        if constexpr (IsInteger<T>)
          storeAs(R.Kind, O, wrapping(BinaryOp::SUB, T(0), X));
        else if constexpr (IsFloat<T>)
          storeAs(R.Kind, O, -X);
        else
          throw Unsupported("unary minus on bool");
        break;
      case UnaryOp::NOT:
        storeAs(R.Kind, O, !static_cast<bool>(X));
        break;
      case UnaryOp::BIT_NOT:
        if constexpr (IsInteger<T>)
          storeAs(R.Kind, O, static_cast<T>(~X));
        else if constexpr (std::is_same_v<T, bool>)
          storeAs(R.Kind, O, !X);
        else
          throw Unsupported("bitwise not on floats");
        break;
      }
    }
  });
}

void binaryOp(BinaryOp Op, const Type *Result, const Type *Lhs, const std::byte *L, const Type *Rhs,
              const std::byte *R, std::byte *Out) {
  const unsigned Lane = 0;
  binaryOpLanes(Op, Result, Lhs, L, 0, Rhs, R, 0, Out, 0, {&Lane, 1});
}

void binaryOpLanes(BinaryOp Op, const Type *Result, const Type *Lhs, const std::byte *L,
                   size_t LStride, const Type *Rhs, const std::byte *R, size_t RStride,
                   std::byte *Out, size_t OutStride, std::span<const unsigned> Lanes) {
  Shape LS = shapeOf(Lhs), RS = shapeOf(Rhs), OS = shapeOf(Result);
  Scalar C = (Op == BinaryOp::SHL || Op == BinaryOp::SHR) ? LS.Kind : common(LS.Kind, RS.Kind);
  bool Relational = luisa::compute::is_relational(Op);
  visitScalar(C, [&](auto Tag) {
    using T = decltype(Tag);
    for (unsigned Lane : Lanes)
      for (unsigned I = 0; I < OS.Components; ++I) {
        T A = loadAs<T>(LS.Kind, component(LS, L + Lane * LStride, I));
        T B = loadAs<T>(RS.Kind, component(RS, R + Lane * RStride, I));
        std::byte *O = Out + Lane * OutStride + I * OS.ElementSize;
        if (Relational)
          storeAs(OS.Kind, O, relation(Op, A, B));
        else
          storeAs(OS.Kind, O, arithmetic(Op, A, B));
      }
  });
}

void castOp(CastOp Op, const Type *Result, const Type *Source, const std::byte *In,
            std::byte *Out) {
  if (Op == CastOp::BITWISE) {
    if (Result->size() != Source->size())
      throw Unsupported("bitwise cast from " + typeName(Source) + " to " + typeName(Result));
    std::memcpy(Out, In, Result->size());
    return;
  }
  Shape S = shapeOf(Source), R = shapeOf(Result);
  visitScalar(S.Kind, [&](auto Tag) {
    using T = decltype(Tag);
    for (unsigned I = 0; I < R.Components; ++I)
      storeAs(R.Kind, Out + I * R.ElementSize, load<T>(component(S, In, I)));
  });
}

void minMaxOp(bool IsMax, const Type *T, const std::byte *A, const std::byte *B, std::byte *Out) {
  Shape S = shapeOf(T);
  visitScalar(S.Kind, [&](auto Tag) {
    using E = decltype(Tag);
    for (unsigned I = 0; I < S.Components; ++I) {
      size_t At = I * S.ElementSize;
      store<E>(Out + At, minMax(IsMax, load<E>(A + At), load<E>(B + At)));
    }
  });
}

void storeOne(const Type *T, std::byte *Out) {
  Shape S = shapeOf(T);
  for (unsigned I = 0; I < S.Components; ++I)
    storeAs(S.Kind, Out + I * S.ElementSize, 1);
}

bool builtinOp(CallOp Op, const Type *Result, std::span<const Type *const> ArgTypes,
               std::span<const std::byte *const> Args, std::byte *Out) {
  auto unsupportedArgs = [&] {
    std::string Types;
    for (auto *T : ArgTypes)
      Types += (Types.empty() ? "" : ", ") + typeName(T);
    return Unsupported(std::string(luisa::to_string(Op)) + "(" + Types + ")");
  };
  if (isVectorMaker(Op)) {
    // make_T<N>(scalar) broadcasts; otherwise the arguments' components in order.
    Shape R = shapeOf(Result);
    if (Args.size() == 1 && !ArgTypes[0]->is_vector()) {
      Shape S = shapeOf(ArgTypes[0]);
      visitScalar(S.Kind, [&](auto Tag) {
        auto V = load<decltype(Tag)>(Args[0]);
        for (unsigned I = 0; I < R.Components; ++I)
          storeAs(R.Kind, Out + I * R.ElementSize, V);
      });
      return true;
    }
    unsigned Next = 0;
    for (size_t A = 0; A < Args.size(); ++A) {
      Shape S = shapeOf(ArgTypes[A]);
      for (unsigned I = 0; I < S.Components && Next < R.Components; ++I, ++Next)
        visitScalar(S.Kind, [&](auto Tag) {
          storeAs(R.Kind, Out + Next * R.ElementSize,
                  load<decltype(Tag)>(Args[A] + I * S.ElementSize));
        });
    }
    return true;
  }
  switch (Op) {
  case CallOp::ALL:
  case CallOp::ANY: {
    Shape S = shapeOf(ArgTypes[0]);
    bool All = true, Any = false;
    for (unsigned I = 0; I < S.Components; ++I) {
      bool B = loadAs<bool>(S.Kind, Args[0] + I * S.ElementSize);
      All = All && B;
      Any = Any || B;
    }
    store<bool>(Out, Op == CallOp::ALL ? All : Any);
    return true;
  }
  case CallOp::SELECT: {
    // select(false_value, true_value, predicate)
    Shape R = shapeOf(Result), P = shapeOf(ArgTypes[2]);
    for (unsigned I = 0; I < R.Components; ++I) {
      bool Pick = loadAs<bool>(P.Kind, component(P, Args[2], I));
      const Shape S = shapeOf(ArgTypes[Pick ? 1 : 0]);
      std::memcpy(Out + I * R.ElementSize, component(S, Args[Pick ? 1 : 0], I), R.ElementSize);
    }
    return true;
  }
  case CallOp::MIN:
  case CallOp::MAX:
  case CallOp::CLAMP:
  case CallOp::ABS: {
    Shape R = shapeOf(Result);
    std::vector<Shape> S;
    for (auto *T : ArgTypes)
      S.push_back(shapeOf(T));
    visitScalar(R.Kind, [&](auto Tag) {
      using T = decltype(Tag);
      if constexpr (std::is_same_v<T, bool>) {
        throw unsupportedArgs();
      } else {
        for (unsigned I = 0; I < R.Components; ++I) {
          auto Arg = [&](size_t A) { return loadAs<T>(S[A].Kind, component(S[A], Args[A], I)); };
          T V;
          if (Op == CallOp::ABS) {
            if constexpr (std::is_same_v<T, int32_t>)
              V = Arg(0) < 0 ? wrapping(BinaryOp::SUB, 0, Arg(0)) : Arg(0);
            else if constexpr (std::is_same_v<T, uint32_t>)
              V = Arg(0);
            else
              V = static_cast<T>(std::fabs(static_cast<float>(Arg(0))));
          } else if (Op == CallOp::CLAMP) {
            V = minMax(false, minMax(true, Arg(0), Arg(1)), Arg(2));
          } else {
            V = minMax(Op == CallOp::MAX, Arg(0), Arg(1));
          }
          store<T>(Out + I * R.ElementSize, V);
        }
      }
    });
    return true;
  }
  case CallOp::CLZ:
  case CallOp::CTZ:
  case CallOp::POPCOUNT:
  case CallOp::REVERSE: {
    Shape S = shapeOf(ArgTypes[0]), R = shapeOf(Result);
    if (S.Kind != Scalar::Uint && S.Kind != Scalar::Int)
      throw unsupportedArgs();
    for (unsigned I = 0; I < R.Components; ++I) {
      uint32_t X = load<uint32_t>(Args[0] + I * S.ElementSize);
      uint32_t V = Op == CallOp::CLZ        ? (X ? __builtin_clz(X) : 32u)
                   : Op == CallOp::CTZ      ? (X ? __builtin_ctz(X) : 32u)
                   : Op == CallOp::POPCOUNT ? __builtin_popcount(X)
                                            : reverseBits(X);
      storeAs(R.Kind, Out + I * R.ElementSize, V);
    }
    return true;
  }
  case CallOp::ISNAN:
  case CallOp::ISINF: {
    Shape S = shapeOf(ArgTypes[0]), R = shapeOf(Result);
    for (unsigned I = 0; I < R.Components; ++I) {
      float X = loadAs<float>(S.Kind, Args[0] + I * S.ElementSize);
      store<bool>(Out + I * R.ElementSize, Op == CallOp::ISNAN ? std::isnan(X) : std::isinf(X));
    }
    return true;
  }
  case CallOp::DOT:
  case CallOp::LENGTH:
  case CallOp::LENGTH_SQUARED:
  case CallOp::REDUCE_SUM:
  case CallOp::REDUCE_PRODUCT:
  case CallOp::REDUCE_MIN:
  case CallOp::REDUCE_MAX: {
    Shape S = shapeOf(ArgTypes[0]), R = shapeOf(Result);
    visitScalar(S.Kind, [&](auto Tag) {
      using T = decltype(Tag);
      if constexpr (std::is_same_v<T, bool>) {
        throw unsupportedArgs();
      } else {
        auto At = [&](size_t A, unsigned I) { return load<T>(Args[A] + I * S.ElementSize); };
        T Acc = At(0, 0);
        if (Op == CallOp::DOT)
          Acc = arithmetic(BinaryOp::MUL, At(0, 0), At(1, 0));
        if (Op == CallOp::LENGTH || Op == CallOp::LENGTH_SQUARED)
          Acc = arithmetic(BinaryOp::MUL, At(0, 0), At(0, 0));
        for (unsigned I = 1; I < S.Components; ++I) {
          switch (Op) {
          case CallOp::DOT:
            Acc = arithmetic(BinaryOp::ADD, Acc, arithmetic(BinaryOp::MUL, At(0, I), At(1, I)));
            break;
          case CallOp::LENGTH:
          case CallOp::LENGTH_SQUARED:
            Acc = arithmetic(BinaryOp::ADD, Acc, arithmetic(BinaryOp::MUL, At(0, I), At(0, I)));
            break;
          case CallOp::REDUCE_SUM:
            Acc = arithmetic(BinaryOp::ADD, Acc, At(0, I));
            break;
          case CallOp::REDUCE_PRODUCT:
            Acc = arithmetic(BinaryOp::MUL, Acc, At(0, I));
            break;
          case CallOp::REDUCE_MIN:
            Acc = minMax(false, Acc, At(0, I));
            break;
          default:
            Acc = minMax(true, Acc, At(0, I));
            break;
          }
        }
        if (Op == CallOp::LENGTH)
          storeAs(R.Kind, Out, std::sqrt(static_cast<float>(Acc)));
        else
          storeAs(R.Kind, Out, Acc);
      }
    });
    return true;
  }
  case CallOp::FMA:
  case CallOp::LERP: {
    Shape R = shapeOf(Result);
    if (R.Kind != Scalar::Float && R.Kind != Scalar::Half)
      throw unsupportedArgs();
    std::vector<Shape> S;
    for (auto *T : ArgTypes)
      S.push_back(shapeOf(T));
    for (unsigned I = 0; I < R.Components; ++I) {
      float A = loadAs<float>(S[0].Kind, component(S[0], Args[0], I));
      float B = loadAs<float>(S[1].Kind, component(S[1], Args[1], I));
      float C = loadAs<float>(S[2].Kind, component(S[2], Args[2], I));
      // lerp(a, b, t) = fma(t, b - a, a), as LuisaCompute's backends spell it.
      float V = Op == CallOp::FMA ? std::fma(A, B, C) : std::fma(C, B - A, A);
      storeAs(R.Kind, Out + I * R.ElementSize, V);
    }
    return true;
  }
  default:
    break;
  }
  // The rest are float builtins of one or two arguments, component by component.
  float Probe;
  bool IsUnary = floatUnary(Op, 1.0f, Probe);
  bool IsBinary = !IsUnary && floatBinary(Op, 1.0f, 1.0f, Probe);
  if (!IsUnary && !IsBinary)
    return false;
  if (Args.size() != (IsUnary ? 1u : 2u))
    throw unsupportedArgs();
  Shape R = shapeOf(Result);
  if (R.Kind != Scalar::Float && R.Kind != Scalar::Half)
    throw unsupportedArgs();
  std::vector<Shape> S;
  for (auto *T : ArgTypes)
    S.push_back(shapeOf(T));
  for (unsigned I = 0; I < R.Components; ++I) {
    float X = loadAs<float>(S[0].Kind, component(S[0], Args[0], I)), V;
    if (IsUnary)
      floatUnary(Op, X, V);
    else
      floatBinary(Op, X, loadAs<float>(S[1].Kind, component(S[1], Args[1], I)), V);
    storeAs(R.Kind, Out + I * R.ElementSize, V);
  }
  return true;
}

} // namespace kernel_tidy::simt
