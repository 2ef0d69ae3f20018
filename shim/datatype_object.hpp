// An MPI datatype as the shim holds it: predefined or derived, with its bounds and a compact type
// map (runs of blocks of predefined elements, repeated at a stride), plus the constructor call that
// made it, for MPI_Type_get_envelope / get_contents. Packing walks the map; a map of one block
// that count copies extend without a gap needs no packing at all (TypeObject::contiguous_for).
#pragma once

#include <mpi.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "runtime/datatypes/buffer_layout.hpp"
#include "shim/handle_tables.hpp"

namespace halyard::mpi_shim {

struct TypeObject;

// `blocks` blocks of `count` elements of one predefined type back to back, the first block
// `offset` bytes from the buffer's address, each next one `stride` bytes after it. A vector of
// a million single doubles is one run, so packing it reads no map to speak of.
struct TypeRun {
  MPI_Aint offset;
  const DatatypeInfo* element;
  std::size_t count;
  std::size_t blocks = 1;
  MPI_Aint stride = 0;

  std::size_t block_bytes() const { return count * static_cast<std::size_t>(element->size); }
  std::size_t bytes() const { return block_bytes() * blocks; }
  MPI_Aint last_block_offset() const { return offset + static_cast<MPI_Aint>(blocks - 1) * stride; }
};

// One datatype argument of a constructor call: the handle the caller passed and the object it
// named then (kept alive: MPI lets the caller free it while the new type still uses it).
struct RecipeType {
  MPI_Datatype handle;
  std::shared_ptr<const TypeObject> type;
};

// The constructor call that made a type (MPI_COMBINER_NAMED for predefined types).
struct TypeRecipe {
  int combiner = MPI_COMBINER_NAMED;
  std::vector<int> integers;
  std::vector<MPI_Aint> addresses;
  std::vector<RecipeType> types;
};

struct TypeObject : std::enable_shared_from_this<TypeObject> {
  std::string name;  // "MPI_INT"; empty for a derived type until MPI_Type_set_name
  std::size_t size = 0;
  MPI_Aint lb = 0;
  MPI_Aint extent = 0;
  MPI_Aint true_lb = 0;
  MPI_Aint true_extent = 0;
  std::vector<TypeRun> map;  // in type-map order; adjacent runs merged
  bool predefined = false;
  bool committed = false;
  // Set by MPI_Type_create_resized and inherited (MPI's lb / ub markers): a type made of parts
  // with explicit bounds takes its bounds from those parts only, and is not padded.
  bool explicit_bounds = false;
  int alignment = 1;  // the largest alignment of its elements
  // The predefined element type, when every run has the same Halyard element type and category
  // (what a reduction computes in); null otherwise or for an empty map.
  const DatatypeInfo* single_element = nullptr;
  TypeRecipe recipe;

  // Elements (predefined ones) in one item of this type.
  std::size_t elements_per_item() const;
  // Whether `count` items are one block of count * size bytes at `true_lb`: one run whose
  // copies, one extent apart, touch.
  bool contiguous_for(std::size_t count) const {  // inline: on every call's path
    if (map.empty()) return true;
    if (map.size() != 1 || map.front().blocks != 1) return false;
    return count <= 1 || static_cast<MPI_Aint>(map.front().bytes()) == extent;
  }
};

// `buffer` + `offset` bytes, computed on addresses: with MPI_BOTTOM the buffer is null and the
// offsets are absolute addresses, which pointer arithmetic from null may not express.
inline std::byte* address_at(const void* buffer, MPI_Aint offset) {
  return reinterpret_cast<std::byte*>(reinterpret_cast<std::uintptr_t>(buffer) +
                                      static_cast<std::uintptr_t>(offset));
}

// Where `count` items of `type` start in `buffer` when TypeObject::contiguous_for(count): at its
// one block's offset (a lower bound or a leading gap moves it); `buffer` itself when they hold no
// bytes (a null buffer stays null).
inline std::byte* contiguous_start(const void* buffer, std::size_t count, const TypeObject& type) {
  if (count == 0 || type.size == 0) return static_cast<std::byte*>(const_cast<void*>(buffer));
  return address_at(buffer, type.map.front().offset);
}

// The object of a predefined datatype.
std::shared_ptr<TypeObject> predefined_type(const DatatypeInfo& info);

// Builds the map and bounds of a derived type from copies of existing types.
class TypeBuilder {
 public:
  // Appends `copies` items of `type`, the first at `offset`, each one extent after the last.
  void add(const TypeObject& type, MPI_Aint offset, std::size_t copies);
  // The finished type; `pad_to_alignment`: round the extent up to the largest element
  // alignment (MPI_Type_create_struct's rule) unless a part has explicit bounds.
  std::shared_ptr<TypeObject> finish(TypeRecipe recipe, bool pad_to_alignment = false);

 private:
  void add_run(TypeRun run);

  // The smallest interval holding every [low, high) included; empty until the first.
  struct Span {
    bool any = false;
    MPI_Aint low = 0, high = 0;
    void include(MPI_Aint from, MPI_Aint to);
  };

  std::vector<TypeRun> map_;
  std::size_t size_ = 0;
  Span bounds_;           // of every part
  Span explicit_bounds_;  // of the parts with bounds set by resizing (MPI's lb / ub markers)
  Span data_;             // of the bytes that hold data
  int alignment_ = 1;
};

// A copy of `type` with new bounds (MPI_Type_create_resized).
std::shared_ptr<TypeObject> resized(const TypeObject& type, MPI_Aint lb, MPI_Aint extent,
                                    TypeRecipe recipe);

// Copies `count` items of `type` from `user` into `packed` (count * type.size bytes). `user` is
// null for MPI_BOTTOM.
void pack(const TypeObject& type, const void* user, std::size_t count, std::byte* packed);
// `count` items of `type` at `user` (null for MPI_BOTTOM) as the runtime's BufferLayout, for
// the collectives that read and write non-contiguous buffers themselves.
BufferLayout buffer_layout(const TypeObject& type, const void* user, std::size_t count);
// Copies the first `bytes` packed bytes into `count` items of `type` at `user`; stops where the
// bytes end (a short message fills a prefix of the type map).
void unpack(const TypeObject& type, const std::byte* packed, std::size_t bytes, void* user,
            std::size_t count);

// The predefined elements that `bytes` packed bytes of `type` make up; -1 when they end inside
// an element (MPI_Get_elements reports MPI_UNDEFINED then).
long long elements_in(const TypeObject& type, std::size_t bytes);

}  // namespace halyard::mpi_shim
