// UART transmitter, 8N1, LSB first. A byte is taken when valid_i and ready_o are both high;
// the line then carries the start bit, eight data bits and the stop bit, div_i clocks each,
// from the next cycle on. ready_o is high again in the cycle after the stop bit's last clock:
// back-to-back bytes are one clock apart (a stop bit of div_i + 1 clocks).
module simt_uart_tx (
  input  logic        clk_i,
  input  logic        rst_ni,
  input  logic [15:0] div_i,    // clocks per bit (>= 4, as the receiver)
  input  logic        valid_i,
  output logic        ready_o,
  input  logic [7:0]  data_i,
  output logic        tx_o      // the line, high when idle
);

  logic        busy_d, busy_q;
  logic [15:0] cnt_d, cnt_q;
  logic [3:0]  bit_d, bit_q;      // bits left to send after the current one
  logic [8:0]  shift_d, shift_q;  // {stop, data}: the bits after the current one
  logic        line_d, line_q;

  assign ready_o = !busy_q;

  always_comb begin
    busy_d  = busy_q;
    cnt_d   = cnt_q;
    bit_d   = bit_q;
    shift_d = shift_q;
    line_d  = line_q;
    if (!busy_q) begin
      line_d = 1'b1;
      if (valid_i) begin
        busy_d  = 1'b1;
        cnt_d   = '0;
        bit_d   = 4'd9;
        shift_d = {1'b1, data_i};
        line_d  = 1'b0;        // the start bit
      end
    end else if (cnt_q == div_i - 16'd1) begin
      cnt_d = '0;
      if (bit_q == 4'd0) begin
        busy_d = 1'b0;
        line_d = 1'b1;
      end else begin
        bit_d   = bit_q - 4'd1;
        line_d  = shift_q[0];
        shift_d = {1'b1, shift_q[8:1]};
      end
    end else begin
      cnt_d = cnt_q + 16'd1;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      busy_q  <= 1'b0;
      cnt_q   <= '0;
      bit_q   <= '0;
      shift_q <= '1;
      line_q  <= 1'b1;
    end else begin
      busy_q  <= busy_d;
      cnt_q   <= cnt_d;
      bit_q   <= bit_d;
      shift_q <= shift_d;
      line_q  <= line_d;
    end
  end

  assign tx_o = line_q;

`ifdef VERILATOR
  always_ff @(posedge clk_i) begin
    if (rst_ni) begin
      assert (!busy_q || line_q || bit_q != 4'd0) else $error("uart_tx: stop bit low");
      assert (div_i >= 16'd4) else $error("uart_tx: fewer than 4 clocks per bit");
    end
  end
`endif

endmodule
