workers = {
  orders  = 25
  billing = 40
}
