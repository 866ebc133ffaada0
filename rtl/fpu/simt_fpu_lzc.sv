// Leading-zero count of a vector: zeros above the most significant one (Width when zero).
// A binary tree of (valid, count) pairs: depth log2(Width). Combinational.
module simt_fpu_lzc #(
  parameter int Width = 32,
  localparam int CntW = $clog2(Width + 1)
) (
  input  logic [Width-1:0] in_i,
  output logic [CntW-1:0]  cnt_o,
  output logic             zero_o
);

  // Pad to a power of two with ones below the LSB so the padding never counts.
  localparam int Levels = $clog2(Width);
  localparam int PadW   = 1 << Levels;

  logic [PadW-1:0] padded;
  if (PadW > Width) begin : g_pad
    assign padded = {in_i, {(PadW - Width){1'b1}}};
  end else begin : g_nopad
    assign padded = in_i;
  end

  // Level l holds PadW >> l nodes; node n of level l covers 2^l bits. Each node has "any one"
  // and the count of leading zeros in its span (l bits).
  logic [PadW-1:0]            any_l [Levels+1];
  logic [PadW-1:0][Levels:0]  cnt_l [Levels+1];

  always_comb begin
    for (int l = 0; l <= Levels; l++) begin
      any_l[l] = '0;
      cnt_l[l] = '0;
    end
    for (int n = 0; n < PadW; n++) begin
      any_l[0][n] = padded[n];
    end
    for (int l = 1; l <= Levels; l++) begin
      for (int n = 0; n < (PadW >> l); n++) begin
        // Node n covers children 2n (low) and 2n+1 (high).
        any_l[l][n] = any_l[l-1][2*n+1] || any_l[l-1][2*n];
        if (any_l[l-1][2*n+1]) begin
          cnt_l[l][n] = cnt_l[l-1][2*n+1];
        end else begin
          cnt_l[l][n] = cnt_l[l-1][2*n] | ((Levels+1)'(1) << (l - 1));
        end
      end
    end
  end

  assign zero_o = in_i == '0;
  assign cnt_o  = zero_o ? CntW'(Width) : CntW'(cnt_l[Levels][0]);

endmodule
