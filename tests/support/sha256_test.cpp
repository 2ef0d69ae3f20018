// SHA-256 and HMAC-SHA256 against the published vectors (FIPS 180-4 examples, RFC 4231), and
// the proofs of the bootstrap's challenge-response built on them.
#include <gtest/gtest.h>

#include <string>

#include "runtime/bootstrap/hello_proof.hpp"
#include "runtime/support/sha256.hpp"

namespace halyard {
namespace {

std::string hex(const std::string& bytes) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out;
  for (char c : bytes) {
    auto b = static_cast<unsigned char>(c);
    out.push_back(kDigits[b >> 4]);
    out.push_back(kDigits[b & 0xf]);
  }
  return out;
}

TEST(Sha256, FipsVectors) {
  EXPECT_EQ(hex(sha256("")), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(hex(sha256("abc")), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  // 56 bytes: the padding needs a second block.
  EXPECT_EQ(hex(sha256("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  EXPECT_EQ(hex(sha256(std::string(1000000, 'a'))),
            "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

TEST(HmacSha256, Rfc4231Vectors) {
  // Test case 1: a 20-byte key.
  EXPECT_EQ(hex(hmac_sha256(std::string(20, '\x0b'), "Hi There")),
            "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7");
  // Test case 2: a key shorter than the block.
  EXPECT_EQ(hex(hmac_sha256("Jefe", "what do ya want for nothing?")),
            "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843");
  // Test case 3: 50 bytes of 0xdd under a 20-byte key of 0xaa.
  EXPECT_EQ(hex(hmac_sha256(std::string(20, '\xaa'), std::string(50, '\xdd'))),
            "773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe");
  // Test case 6: a 131-byte key, longer than the block, is hashed first.
  EXPECT_EQ(hex(hmac_sha256(std::string(131, '\xaa'),
                            "Test Using Larger Than Block-Size Key - Hash Key First")),
            "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54");
}

TEST(ConstantTimeEquality, ComparesWholeStrings) {
  EXPECT_TRUE(equal_in_constant_time("proof", "proof"));
  EXPECT_FALSE(equal_in_constant_time("proof", "proog"));
  EXPECT_FALSE(equal_in_constant_time("proof", "proo"));
  EXPECT_TRUE(equal_in_constant_time("", ""));
}

TEST(HelloProof, DependsOnEveryInputAndDiffersBySide) {
  const std::string token = "0123456789abcdef0123456789abcdef";
  const std::string ns(control::kNonceBytes, 's');
  const std::string nc(control::kNonceBytes, 'c');
  const std::string proof = control::client_proof(token, ns, 3, nc);
  EXPECT_EQ(proof.size(), kSha256Bytes);
  EXPECT_EQ(proof, control::client_proof(token, ns, 3, nc));
  EXPECT_NE(proof, control::client_proof(token + "x", ns, 3, nc));
  EXPECT_NE(proof, control::client_proof(token, nc, 3, nc));
  EXPECT_NE(proof, control::client_proof(token, ns, 4, nc));
  EXPECT_NE(proof, control::client_proof(token, ns, 3, ns));
  // The server's proof for the same exchange is not the client's: neither can reflect the other.
  EXPECT_NE(proof, control::server_proof(token, ns, 3, nc));
  EXPECT_EQ(control::make_nonce().size(), control::kNonceBytes);
  EXPECT_NE(control::make_nonce(), control::make_nonce());
}

}  // namespace
}  // namespace halyard
